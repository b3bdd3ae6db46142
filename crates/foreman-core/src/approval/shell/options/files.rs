//! Programs whose work is writing files: the operands of `cp`, `mv`, `ln`, `install`, `rm`,
//! `mkdir`, `touch`, `tee`, `chmod`…, `dd of=`, `uniq`'s output, and the options that name a
//! file written (`sort -o`, `patch -o`, `find -fprint`); with `find -delete`,
//! `sort --compress-program` and `split --filter`, which delete or run.
//!
//! Every operand of a program that writes its operands is judged as written, also the ones it
//! only reads (`cp`'s sources): a file read from outside the workspace asks too, and no
//! misread option can hide a target. Inside the workspace these writes are allowed by a rule
//! for the program, like a redirection is.

use super::Effects;
use super::scan::{Opt, Table, apply, scan};

const TARGET: Opt = Opt::writes(&["-t", "--target-directory"]);
const SUFFIX: Opt = Opt::valued(&["-S", "--suffix"]);
const REFERENCE: Opt = Opt::valued(&["--reference", "--from"]);

const COPY: Table = Table::new(&[TARGET, SUFFIX]);
const INSTALL: Table = Table::new(&[
    TARGET,
    SUFFIX,
    Opt::valued(&["-m", "-o", "-g", "--mode", "--owner", "--group"]),
]);
const MKDIR: Table = Table::new(&[Opt::valued(&["-m", "--mode"])]);
const TOUCH: Table = Table::new(&[
    Opt::valued(&["-r", "-d", "-t", "--reference", "--date"]),
    Opt::valued(&["-s", "--size"]),
]);
const SHRED: Table = Table::new(&[Opt::valued(&["-n", "-s", "--iterations", "--size"])]);
const PLAIN: Table = Table::new(&[REFERENCE]);
const SPLIT: Table = Table::new(&[
    Opt::danger(&["--filter"], "runs a command for every piece"),
    Opt::valued(&["-l", "-b", "-C", "-n", "-a", "-t", "--additional-suffix"]),
    Opt::valued(&[
        "--lines",
        "--bytes",
        "--line-bytes",
        "--number",
        "--suffix-length",
    ]),
]);

/// Records the operands of `program ARGS`, which writes (or removes, or changes) them.
pub(super) fn writes_operands(program: &str, args: &[String], effects: &mut Effects) {
    let table = match program {
        "cp" | "mv" | "ln" => &COPY,
        "install" => &INSTALL,
        "mkdir" => &MKDIR,
        "touch" | "truncate" => &TOUCH,
        "shred" => &SHRED,
        "split" => &SPLIT,
        _ => &PLAIN,
    };
    let scanned = scan(args, table);
    apply(program, &scanned, None, effects);
    scanned.operands.iter().for_each(|f| effects.write(f));
}

const SORT: Table = Table::new(&[
    Opt::writes(&["-o", "--output"]),
    Opt::danger(
        &["--compress-program"],
        "runs a program on its temporary files",
    ),
    Opt::valued(&["-k", "-t", "-S", "-T", "--key", "--field-separator"]),
    Opt::valued(&[
        "--buffer-size",
        "--temporary-directory",
        "--files0-from",
        "--parallel",
        "--batch-size",
        "--random-source",
    ]),
]);

const CSPLIT: Table = Table::new(&[
    Opt::writes(&["-f", "--prefix"]),
    Opt::valued(&["-b", "-n", "--suffix-format", "--digits"]),
]);

const PATCH: Table = Table::new(&[
    Opt::writes(&["-o", "--output"]),
    Opt::writes(&["-d", "--directory"]),
    Opt::writes(&["-r", "--reject-file"]),
    Opt::writes(&["-B", "--prefix", "-Y", "--basename-prefix"]),
    Opt::valued(&[
        "-i", "--input", "-p", "--strip", "-F", "--fuzz", "-z", "--suffix",
    ]),
    Opt::valued(&["-D", "--ifdef", "-V", "--version-control"]),
]);

const BASE64: Table = Table::new(&[Opt::writes(&["-o", "--output"])]);

const FIND: Table = Table::new(&[
    Opt::flag(&["-delete"], "deletes the files it finds"),
    Opt::writes(&["-fprint", "-fprint0", "-fprintf", "-fls"]),
    Opt::valued(&[
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-regex",
        "-iregex",
        "-lname",
        "-newer",
        "-type",
        "-user",
        "-group",
        "-perm",
        "-size",
        "-mtime",
        "-mmin",
        "-maxdepth",
        "-mindepth",
        "-printf",
    ]),
])
.single_dash();

/// Records what `program ARGS` writes through its options: `sort -o`, `find -fprint`…
pub(super) fn writes_by_options(program: &str, args: &[String], effects: &mut Effects) {
    let table = match program {
        "sort" => &SORT,
        "csplit" => &CSPLIT,
        "patch" => &PATCH,
        "find" => &FIND,
        _ => &BASE64,
    };
    let scanned = scan(args, table);
    apply(program, &scanned, None, effects);
    // `patch FILE PATCH` writes FILE.
    if program == "patch" {
        scanned.operands.iter().for_each(|f| effects.write(f));
    }
}

const UNIQ: Table = Table::new(&[Opt::valued(&["-f", "-s", "-w"])]);

/// Records `uniq`'s output file, its second operand (all but the first, to be safe).
pub(super) fn uniq(program: &str, args: &[String], effects: &mut Effects) {
    let scanned = scan(args, &UNIQ);
    apply(program, &scanned, None, effects);
    scanned
        .operands
        .iter()
        .skip(1)
        .for_each(|f| effects.write(f));
}

/// Records the file `dd of=FILE` writes.
pub(super) fn dd(_program: &str, args: &[String], effects: &mut Effects) {
    args.iter()
        .filter_map(|a| a.strip_prefix("of="))
        .for_each(|f| effects.write(f));
}

#[cfg(test)]
mod tests {
    use super::super::Hit;
    use super::super::checking::{run, writes};
    use super::*;

    #[test]
    fn operands_are_written() {
        let w = |line| writes(writes_operands, line);
        assert_eq!(w("cp -r src ../backup"), ["src", "../backup"]);
        assert_eq!(w("cp -t ../dir a b"), ["../dir", "a", "b"]);
        assert_eq!(w("cp --target-directory=/tmp a"), ["/tmp", "a"]);
        assert_eq!(w("cp a ../x -S .bak"), ["a", "../x"]);
        assert_eq!(w("mv a b"), ["a", "b"]);
        assert_eq!(w("tee -a log.txt ../x"), ["log.txt", "../x"]);
        assert_eq!(w("rm -rf -- -x /tmp/y"), ["-x", "/tmp/y"]);
        assert_eq!(w("mkdir -p -m 755 a/b"), ["a/b"]);
        assert_eq!(w("touch -d yesterday f"), ["f"]);
        assert_eq!(w("chmod +x run.sh"), ["+x", "run.sh"]);
        assert_eq!(w("split -l 100 big.txt ../part-"), ["big.txt", "../part-"]);
        let filter = run(writes_operands, "split --filter=sh big.txt");
        assert!(matches!(filter.hit, Some(Hit::Option { .. })), "{filter:?}");
    }

    #[test]
    fn options_that_write_delete_or_run() {
        let w = |line| writes(writes_by_options, line);
        assert_eq!(w("sort -o ../out.txt in.txt"), ["../out.txt"]);
        assert_eq!(w("sort -no/tmp/x in.txt"), ["/tmp/x"]);
        assert_eq!(w("sort --out=/tmp/x in.txt"), ["/tmp/x"]);
        assert!(w("sort -k 2 -t , in.txt").is_empty());
        assert_eq!(w("find . -name x -fprint ../list"), ["../list"]);
        assert!(w("find . -name '*.rs' -type f").is_empty());
        assert_eq!(w("patch -p1 -i ../fix.diff -o ../out"), ["../out"]);
        assert_eq!(w("patch ../x fix.diff"), ["../x", "fix.diff"]);
        assert_eq!(w("base64 -o /tmp/x f"), ["/tmp/x"]);
        assert_eq!(w("csplit -f ../piece f /x/"), ["../piece"]);
        for line in ["find . -delete", "sort --compress-program=sh f"] {
            let hit = run(writes_by_options, line).hit;
            assert!(matches!(hit, Some(Hit::Option { .. })), "{line}: {hit:?}");
        }
        assert_eq!(writes(uniq, "uniq -c in.txt ../out"), ["../out"]);
        assert!(writes(uniq, "uniq -f 1 in.txt").is_empty());
        assert_eq!(writes(dd, "dd if=a of=/dev/sda bs=1M"), ["/dev/sda"]);
    }
}
