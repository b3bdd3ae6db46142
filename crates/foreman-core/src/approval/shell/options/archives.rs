//! Archivers: tar's options that run a program (`--to-command`, `--use-compress-program`/`-I`,
//! `--rsh-command`, `--info-script`/`-F`, `--checkpoint-action=exec`, a `host:file` archive),
//! `-P` when extracting (members may then name any path); the archive written when creating;
//! the folder extracted into (`-C`); zip's `-TT`, unzip's `-:` and `-d`; what the compressors
//! replace.
//!
//! Extracting into the workspace is allowed by a rule for tar or unzip: GNU tar, bsdtar and
//! unzip refuse members that climb out with `..` or an absolute path, and links that lead out,
//! unless told otherwise (`-P`, `-:`).

use super::Effects;
use super::scan::{Does, Opt, Table, Takes, check as check_table, scan};

const RUNS: &str = "runs a program";

const TAR: Table = Table::new(&[
    Opt::danger(&["--to-command"], "runs a program for every member"),
    Opt::danger(&["-I", "--use-compress-program"], RUNS),
    Opt::danger(&["--rsh-command", "--rmt-command"], RUNS),
    Opt::danger(&["-F", "--info-script", "--new-volume-script"], RUNS),
    Opt::new(
        &["--checkpoint-action"],
        Takes::Value,
        Does::Value(|action| action.contains("exec").then_some(RUNS)),
    ),
    Opt::writes(&["-g", "--listed-incremental", "--index-file", "--volno-file"]),
    Opt::valued(&["-f", "--file", "-C", "--directory"]),
    // Listed so that their abbreviations are read as them.
    Opt::new(&MODES, Takes::Nothing, Does::Nothing),
    Opt::valued(&["-b", "-H", "-K", "-L", "-N", "-T", "-V", "-X"]),
    Opt::valued(&[
        "--files-from",
        "--exclude-from",
        "--exclude",
        "--transform",
        "--xform",
        "--format",
        "--owner",
        "--group",
        "--mode",
        "--mtime",
        "--strip-components",
        "--label",
        "--newer",
        "--after-date",
    ]),
])
.exact(&["--checkpoint"]);

/// tar's operations and the flags that change what it writes, by their long names.
const MODES: [&str; 12] = [
    "--create",
    "--append",
    "--update",
    "--catenate",
    "--concatenate",
    "--delete",
    "--extract",
    "--get",
    "--absolute-names",
    "--remove-files",
    "--force-local",
    "--list",
];

/// tar's letters that take a value, for its old form (`tar xzf a.tgz`).
const TAR_VALUED: &str = "bCfFgHIKLNTVX";

/// Records what `tar ARGS` does beyond listing.
pub(super) fn tar(program: &str, args: &[String], effects: &mut Effects) {
    let args = old_form(args);
    let scanned = scan(&args, &TAR);
    super::scan::apply(program, &scanned, None, effects);
    let creates = scanned.has(&[
        "-c",
        "--create",
        "-r",
        "--append",
        "-u",
        "--update",
        "-A",
        "--catenate",
        "--concatenate",
        "--delete",
    ]);
    let extracts = scanned.has(&["-x", "--extract", "--get"]);
    let archives: Vec<&str> = scanned.values(&["-f", "--file"]).collect();
    if !scanned.has(&["--force-local"])
        && let Some(remote) = archives.iter().find(|a| a.contains(':'))
    {
        effects.danger(program, remote, "reaches a remote archive through a shell");
    }
    if creates {
        archives.iter().for_each(|a| effects.write(a));
    }
    if scanned.has(&["--remove-files"]) {
        scanned.operands.iter().for_each(|f| effects.write(f));
    }
    if extracts {
        if scanned.has(&["-P", "--absolute-names"]) {
            effects.danger(program, "-P", "extracts members to any path they name");
        }
        let mut dir: Option<String> = None;
        for next in scanned.values(&["-C", "--directory"]) {
            let joined = match &dir {
                Some(dir) if !next.starts_with('/') => format!("{dir}/{next}"),
                _ => next.to_owned(),
            };
            effects.write(&joined);
            dir = Some(joined);
        }
    }
}

/// `tar xzf a.tgz` as `tar -x -z -f a.tgz`: the first word's letters are options, and those
/// that take a value take the next words in turn.
fn old_form(args: &[String]) -> Vec<String> {
    let Some(first) = args.first().filter(|a| {
        !a.starts_with('-') && !a.is_empty() && a.chars().all(|c| c.is_ascii_alphabetic())
    }) else {
        return args.to_vec();
    };
    let mut rest = args[1..].iter();
    let mut out = Vec::new();
    for letter in first.chars() {
        out.push(format!("-{letter}"));
        if TAR_VALUED.contains(letter) {
            out.extend(rest.next().cloned());
        }
    }
    out.extend(rest.cloned());
    out
}

const UNZIP: Table = Table::new(&[
    Opt::flag(&["-:"], "extracts members to any path they name"),
    Opt::writes(&["-d"]),
    Opt::valued(&["-x"]),
]);

/// Records what `unzip ARGS` does beyond extracting into the current folder.
pub(super) fn unzip(program: &str, args: &[String], effects: &mut Effects) {
    check_table(program, args, &UNZIP, effects);
}

const ZIP: Table = Table::new(&[
    Opt::danger(&["--unzip-command"], "runs a program to test the archive"),
    Opt::writes(&["-O", "--output-file", "-b", "--temp-path"]),
    Opt::valued(&["-n", "-P", "-t", "-x", "-i", "-Z"]),
]);

/// Records what `zip ARGS` does: the archive written, what `-m` moves into it, `-TT`.
pub(super) fn zip(program: &str, args: &[String], effects: &mut Effects) {
    if args.iter().any(|a| a.starts_with("-TT")) {
        effects.danger(program, "-TT", "runs a program to test the archive");
    }
    let scanned = scan(args, &ZIP);
    super::scan::apply(program, &scanned, None, effects);
    let moves = scanned.has(&["-m", "--move"]);
    for (at, operand) in scanned.operands.iter().enumerate() {
        if at == 0 || moves {
            effects.write(operand);
        }
    }
}

const COMPRESSOR: Table = Table::new(&[
    Opt::writes(&["-o"]),
    Opt::valued(&["-S", "--suffix", "-T", "--threads"]),
]);

/// Records what `gzip ARGS` (or bzip2, xz, zstd…) writes: each file is replaced by its
/// (de)compressed one, unless it only prints, lists or tests.
pub(super) fn compressor(program: &str, args: &[String], effects: &mut Effects) {
    let scanned = scan(args, &COMPRESSOR);
    super::scan::apply(program, &scanned, None, effects);
    let only_reads = program.starts_with("zcat")
        || program.ends_with("cat")
        || scanned.has(&[
            "-c",
            "--stdout",
            "--to-stdout",
            "-l",
            "--list",
            "-t",
            "--test",
            "-o",
        ]);
    if !only_reads {
        scanned.operands.iter().for_each(|f| effects.write(f));
    }
}

#[cfg(test)]
mod tests {
    use super::super::checking::{option, run, writes};
    use super::*;

    #[test]
    fn tar_options_that_run_a_program() {
        for (line, hit) in [
            ("tar --to-command=sh -xf a.tar", "--to-command"),
            ("tar --to-com sh -xf a.tar", "--to-command"),
            ("tar -I zstd -xf a.tar.zst", "-I"),
            ("tar -xIzstd -f a.tar.zst", "-I"),
            (
                "tar --use-compress-program=x -cf a.tar d",
                "--use-compress-program",
            ),
            (
                "tar --checkpoint=1 --checkpoint-action=exec=sh -cf a.tar d",
                "--checkpoint-action",
            ),
            ("tar -F ./next.sh -xf a.tar", "-F"),
            ("tar --rsh-command=/bin/x -xf h:a.tar", "--rsh-command"),
            ("tar -xf host:a.tar", "host:a.tar"),
            ("tar -xPf a.tar", "-P"),
        ] {
            assert_eq!(option(tar, line).as_deref(), Some(hit), "{line}");
        }
        assert!(
            run(
                tar,
                "tar --checkpoint=10 --checkpoint-action=dot -cf a.tar d"
            )
            .hit
            .is_none()
        );
    }

    #[test]
    fn tar_writes_the_archive_it_creates_and_where_it_extracts() {
        assert!(writes(tar, "tar -tf a.tar").is_empty());
        assert!(writes(tar, "tar tvf a.tar").is_empty());
        assert!(writes(tar, "tar -xzf a.tgz").is_empty());
        assert_eq!(writes(tar, "tar -czf ../a.tgz src"), ["../a.tgz"]);
        assert_eq!(writes(tar, "tar czf ../a.tgz src"), ["../a.tgz"]);
        assert_eq!(writes(tar, "tar --create --file=out.tar src"), ["out.tar"]);
        assert_eq!(writes(tar, "tar -xf a.tar -C /tmp"), ["/tmp"]);
        assert_eq!(
            writes(tar, "tar xf a.tar -C out -C sub"),
            ["out", "out/sub"]
        );
        assert_eq!(
            writes(tar, "tar -cf a.tar --remove-files ../d"),
            ["a.tar", "../d"]
        );
        assert_eq!(
            writes(tar, "tar -czg ../snap -f a.tgz d"),
            ["../snap", "a.tgz"]
        );
    }

    #[test]
    fn zip_and_unzip() {
        assert!(writes(unzip, "unzip a.zip").is_empty());
        assert_eq!(writes(unzip, "unzip a.zip -d ../out"), ["../out"]);
        assert_eq!(option(unzip, "unzip -: a.zip").as_deref(), Some("-:"));
        assert_eq!(writes(zip, "zip -r ../a.zip src"), ["../a.zip"]);
        assert_eq!(writes(zip, "zip -m a.zip ../f"), ["a.zip", "../f"]);
        assert_eq!(
            option(zip, "zip -T -TT 'sh -c id' a.zip f").as_deref(),
            Some("-TT")
        );
    }

    #[test]
    fn compressors_replace_their_files() {
        assert_eq!(writes(compressor, "gzip ../big.log"), ["../big.log"]);
        assert_eq!(writes(compressor, "xz -d a.xz"), ["a.xz"]);
        assert!(writes(compressor, "gzip -c ../big.log").is_empty());
        assert!(writes(compressor, "gunzip -t a.gz").is_empty());
        assert!(writes(compressor, "zcat a.gz").is_empty());
        assert_eq!(writes(compressor, "zstd a -o /tmp/a.zst"), ["/tmp/a.zst"]);
    }
}
