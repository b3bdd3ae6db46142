//! Paths hidden from confined commands: where credentials live (`~/.ssh`, `~/.aws`, the
//! keyring's files…) and the app's own data. In the sandbox each is replaced by an empty,
//! read-only stand-in that refuses to be opened, so a tool says "Permission denied" with the
//! path instead of reading a key.
//!
//! The list is the user's (Settings › Sandbox): [`defaults`] seeds it, [`merged`] adds defaults
//! a newer version brought to a stored list, [`resolve`] turns the enabled entries into
//! absolute paths. After a command ran, [`touched`] says which hidden paths its line or output
//! named, and which ones the programs it ran need (`gh` needs `~/.config/gh`), for its card.

use std::path::{Path, PathBuf};

use foreman_protocol::HiddenPath;

/// A default entry: the path (`~/` is the home directory) and the commands that need it: a
/// program (`gh`: any of its commands) or a program and its first argument (`git push`).
struct Entry {
    path: &'static str,
    used_by: &'static [&'static str],
}

const GIT_REMOTE: &[&str] = &[
    "git push",
    "git pull",
    "git fetch",
    "git clone",
    "git ls-remote",
    "git submodule",
    "ssh",
    "scp",
    "sftp",
    "rsync",
];

/// Credential locations hidden unless the user turns them off.
const DEFAULTS: &[Entry] = &[
    Entry {
        path: "~/.ssh",
        used_by: GIT_REMOTE,
    },
    Entry {
        path: "~/.aws",
        used_by: &["aws", "terraform", "sam", "cdk"],
    },
    Entry {
        path: "~/.config/gh",
        used_by: &["gh"],
    },
    Entry {
        path: "~/.netrc",
        used_by: &[
            "git push",
            "git pull",
            "git fetch",
            "git clone",
            "curl",
            "wget",
        ],
    },
    Entry {
        path: "~/.git-credentials",
        used_by: GIT_REMOTE,
    },
    Entry {
        path: "~/.config/git/credentials",
        used_by: GIT_REMOTE,
    },
    Entry {
        path: "~/.docker/config.json",
        used_by: &["docker", "podman", "buildah", "skopeo"],
    },
    Entry {
        path: "~/.kube",
        used_by: &["kubectl", "helm", "k9s", "kubectx"],
    },
    Entry {
        path: "~/.cargo/credentials.toml",
        used_by: &["cargo publish", "cargo login", "cargo owner", "cargo yank"],
    },
    Entry {
        path: "~/.cargo/credentials",
        used_by: &["cargo publish", "cargo login", "cargo owner", "cargo yank"],
    },
    Entry {
        path: "~/.pypirc",
        used_by: &["twine", "poetry publish", "uv publish"],
    },
    Entry {
        path: "~/.gnupg",
        used_by: &["gpg", "gpg2", "pass"],
    },
    Entry {
        path: "~/.password-store",
        used_by: &["pass"],
    },
    Entry {
        path: "~/.config/gcloud",
        used_by: &["gcloud", "gsutil", "bq"],
    },
    Entry {
        path: "~/.azure",
        used_by: &["az"],
    },
    Entry {
        path: "~/.Xauthority",
        used_by: &[],
    },
    Entry {
        path: "~/.local/share/keyrings",
        used_by: &["secret-tool"],
    },
    Entry {
        path: "~/.local/share/kwalletd",
        used_by: &[],
    },
];

/// The default list, every entry on.
pub fn defaults() -> Vec<HiddenPath> {
    DEFAULTS
        .iter()
        .map(|d| HiddenPath {
            path: d.path.to_owned(),
            enabled: true,
        })
        .collect()
}

/// `stored` (the user's list) with the defaults it lacks added, on, after its own entries.
/// An entry the user turned off stays off; one they removed comes back only if it is a default.
pub fn merged(stored: &[HiddenPath]) -> Vec<HiddenPath> {
    let mut list = stored.to_vec();
    for default in defaults() {
        if !list.iter().any(|e| e.path == default.path) {
            list.push(default);
        }
    }
    list
}

/// `~/x` under `home`; an absolute path as it is; `None` for anything else (a relative path
/// would mean something different in every workspace).
pub fn expand(path: &str, home: Option<&Path>) -> Option<PathBuf> {
    let path = path.trim();
    if path == "~" {
        return None; // hiding the whole home directory is not a stand-in's job
    }
    if let Some(rest) = path.strip_prefix("~/") {
        return home.map(|h| h.join(rest));
    }
    let path = Path::new(path);
    path.is_absolute().then(|| path.to_path_buf())
}

/// The enabled entries of `list` as absolute paths (home from `$HOME`), with `extra` (the
/// app's own directories) first.
pub fn resolve(list: &[HiddenPath], extra: &[PathBuf]) -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut paths: Vec<PathBuf> = extra.to_vec();
    for entry in list.iter().filter(|e| e.enabled) {
        if let Some(path) = expand(&entry.path, home.as_deref())
            && !paths.contains(&path)
        {
            paths.push(path);
        }
    }
    paths
}

/// How `path` is written for a person: `~/.ssh` under `home`, else as it is.
/// What to hide of the folder `dir` when it holds paths that must stay (`kept`: the workspace,
/// the writable roots): each entry of it not on the way to one of them, and the same one level
/// down on the way. So a task's worktree under the app's data folder stays, and the database
/// beside it is hidden.
pub fn around(dir: &Path, kept: &[PathBuf]) -> Vec<PathBuf> {
    let mut hide = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return hide;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if kept.iter().any(|k| k == &path) {
            continue;
        }
        if kept.iter().any(|k| k.starts_with(&path)) {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                hide.extend(around(&path, kept));
            }
            continue;
        }
        hide.push(path);
    }
    hide
}

pub fn shown(path: &Path, home: Option<&Path>) -> String {
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) if !rest.as_os_str().is_empty() => format!("~/{}", rest.display()),
        _ => path.display().to_string(),
    }
}

/// The hidden paths (as [`shown`] under `home`) that exist and that `line` (the command) or
/// `output` names — absolute, as `~/…` or `$HOME/…` — or that the commands `ran` need, for a
/// command's card. Each of `ran` is a command's words with its assignments left out.
pub fn touched(
    hidden: &[PathBuf],
    home: Option<&Path>,
    line: &str,
    output: &str,
    ran: &[Vec<String>],
) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    // One that is not there hides nothing: running the command outside would not help.
    for path in hidden
        .iter()
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
    {
        let short = shown(path, home);
        let mut forms = vec![path.display().to_string(), short.clone()];
        if let Some(rest) = short.strip_prefix("~/") {
            forms.push(format!("$HOME/{rest}"));
            forms.push(format!("${{HOME}}/{rest}"));
        }
        let named = forms
            .iter()
            .any(|form| mentions(line, form) || mentions(output, form));
        let needed = DEFAULTS
            .iter()
            .any(|d| d.path == short && d.used_by.iter().any(|u| ran.iter().any(|w| needs(u, w))));
        if (named || needed) && !found.contains(&short) {
            found.push(short);
        }
    }
    found
}

/// Whether the command `words` is `user` (`gh`, or `git push`: a program and its first
/// argument); the program is matched by its name without a directory.
fn needs(user: &str, words: &[String]) -> bool {
    let mut wanted = user.split(' ');
    let Some(program) = wanted.next() else {
        return false;
    };
    let name = words.first().map(|w| w.rsplit('/').next().unwrap_or(w));
    if name != Some(program) {
        return false;
    }
    match wanted.next() {
        None => true,
        Some(sub) => words.get(1).is_some_and(|w| w == sub),
    }
}

/// Whether `text` names `path` itself or something under it (`~/.ssh` in `~/.ssh/id_rsa`, but
/// not in `~/.sshrc`).
fn mentions(text: &str, path: &str) -> bool {
    text.match_indices(path).any(|(at, _)| {
        let after = text[at + path.len()..].chars().next();
        !matches!(after, Some(c) if c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_keeps_the_users_choices_and_adds_new_defaults() {
        let stored = vec![
            HiddenPath {
                path: "~/.ssh".into(),
                enabled: false,
            },
            HiddenPath {
                path: "/srv/secrets".into(),
                enabled: true,
            },
        ];
        let list = merged(&stored);
        assert_eq!(&list[..2], &stored[..]);
        assert!(list.iter().any(|e| e.path == "~/.aws" && e.enabled));
        assert_eq!(list.iter().filter(|e| e.path == "~/.ssh").count(), 1);
    }

    #[test]
    fn a_hidden_folder_holding_a_workspace_is_hidden_around_it() {
        let data = tempfile::tempdir().unwrap();
        let root = data.path();
        std::fs::write(root.join("foreman.db"), "").unwrap();
        std::fs::create_dir_all(root.join("sessions/s1")).unwrap();
        std::fs::create_dir_all(root.join("worktrees/repo/task-a")).unwrap();
        std::fs::create_dir_all(root.join("worktrees/repo/task-b")).unwrap();
        let kept = vec![root.join("worktrees/repo/task-a")];
        let mut hidden = around(root, &kept);
        hidden.sort();
        assert_eq!(
            hidden,
            vec![
                root.join("foreman.db"),
                root.join("sessions"),
                root.join("worktrees/repo/task-b"),
            ]
        );
    }

    #[test]
    fn paths_expand_from_home_and_relative_ones_are_ignored() {
        let home = Path::new("/home/u");
        assert_eq!(
            expand("~/.ssh", Some(home)),
            Some(PathBuf::from("/home/u/.ssh"))
        );
        assert_eq!(expand("/etc/x", Some(home)), Some(PathBuf::from("/etc/x")));
        assert_eq!(expand("rel/x", Some(home)), None);
        assert_eq!(expand("~", Some(home)), None);
        assert_eq!(expand("~/.ssh", None), None);
    }

    #[test]
    fn a_command_that_names_or_needs_a_hidden_path_is_noticed() {
        let home = tempfile::tempdir().unwrap();
        let home = home.path();
        let (ssh, gh) = (home.join(".ssh"), home.join(".config/gh"));
        std::fs::create_dir_all(&ssh).unwrap();
        std::fs::create_dir_all(&gh).unwrap();
        // `~/.kube` is hidden but not there: it hides nothing.
        let hidden = vec![ssh.clone(), gh, home.join(".kube")];
        let w = |t: &str| vec![t.split(' ').map(String::from).collect::<Vec<_>>()];
        let touched = |line: &str, output: &str, ran: &[Vec<String>]| {
            touched(&hidden, Some(home), line, output, ran)
        };
        assert_eq!(
            touched("cat ~/.ssh/id_ed25519 | rev", "", &w("cat")),
            ["~/.ssh"]
        );
        assert_eq!(
            touched("cat \"$HOME/.ssh/config\"", "", &w("cat")),
            ["~/.ssh"]
        );
        let printed = format!("cat: {}/id_rsa: Permission denied", ssh.display());
        assert_eq!(touched("sh x.sh", &printed, &w("sh x.sh")), ["~/.ssh"]);
        assert_eq!(
            touched("gh pr list", "", &w("gh pr list")),
            ["~/.config/gh"]
        );
        assert_eq!(
            touched("git push", "", &w("/usr/bin/git push origin")),
            ["~/.ssh"]
        );
        assert!(touched("git commit", "", &w("git commit -m x")).is_empty());
        assert!(touched("cat ~/.sshrc", "", &w("cat ~/.sshrc")).is_empty());
        assert!(touched("kubectl get pods ~/.kube/config", "", &w("kubectl get")).is_empty());
        assert!(touched("cargo test", "ok", &w("cargo test")).is_empty());
    }

    #[test]
    fn a_command_is_matched_to_a_program_and_its_first_argument() {
        let w = |t: &str| t.split(' ').map(String::from).collect::<Vec<_>>();
        assert!(needs("gh", &w("gh pr list")));
        assert!(needs("git push", &w("/usr/bin/git push origin")));
        assert!(!needs("git push", &w("git commit -m x")));
        assert!(!needs("gh", &w("ghc Main.hs")));
    }
}
