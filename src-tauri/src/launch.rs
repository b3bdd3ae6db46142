//! The app's command line: `foreman [DIR]` opens DIR as the workspace (like `code .`);
//! `foreman --version` and `foreman --help` print and exit before any window or display is
//! needed. A desktop entry runs `foreman %f`, so "Open with Foreman" on a folder lands here.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::Parser;

/// Foreman: supervise an AI coding agent in a workspace folder.
#[derive(Debug, Parser)]
#[command(name = "foreman", version, about)]
struct AppCli {
    /// The folder to open as the workspace (default: the welcome screen).
    #[arg(value_name = "DIR")]
    workspace: Option<String>,
    /// Added by WebKitWebDriver when it starts the app for a test; nothing for the app to do.
    #[arg(long, hide = true)]
    automation: bool,
}

/// What the app was asked to open.
#[derive(Debug, Clone, Default)]
pub struct LaunchRequest {
    /// The folder given on the command line, as typed.
    pub workspace: Option<String>,
    /// The directory the app was started from, to resolve a relative folder.
    pub cwd: PathBuf,
}

impl LaunchRequest {
    /// Parses the command line (the program name first). `--help`, `--version` and a usage
    /// error print and end the process here, as a command-line tool does.
    pub fn from_args(args: impl IntoIterator<Item = OsString>) -> Self {
        Self::try_from_args(args).unwrap_or_else(|e| e.exit())
    }

    fn try_from_args(args: impl IntoIterator<Item = OsString>) -> Result<Self, clap::Error> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        Self::parse_in(args, cwd)
    }

    /// Parses the command line of a second `foreman` started while this app runs, which handed
    /// it over and ended (`cwd` is the directory it was started from).
    pub fn forwarded(args: Vec<String>, cwd: String) -> Result<Self, clap::Error> {
        Self::parse_in(args.into_iter().map(OsString::from), PathBuf::from(cwd))
    }

    fn parse_in(
        args: impl IntoIterator<Item = OsString>,
        cwd: PathBuf,
    ) -> Result<Self, clap::Error> {
        let cli = AppCli::try_parse_from(args)?;
        Ok(Self {
            workspace: cli.workspace,
            cwd,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<LaunchRequest, clap::Error> {
        let argv = std::iter::once("foreman").chain(args.iter().copied());
        LaunchRequest::try_from_args(argv.map(OsString::from))
    }

    #[test]
    fn a_folder_is_the_workspace_and_none_is_the_welcome_screen() {
        assert_eq!(parse(&["/w"]).unwrap().workspace.as_deref(), Some("/w"));
        assert_eq!(parse(&[]).unwrap().workspace, None);
        let driven = parse(&["--automation", "/w"]).unwrap();
        assert_eq!(driven.workspace.as_deref(), Some("/w"));
    }

    #[test]
    fn version_and_help_are_answers_not_errors() {
        let version = parse(&["--version"]).unwrap_err();
        assert_eq!(version.kind(), clap::error::ErrorKind::DisplayVersion);
        assert!(!version.use_stderr());
        let help = parse(&["--help"]).unwrap_err();
        assert_eq!(help.kind(), clap::error::ErrorKind::DisplayHelp);
        let text = help.render().to_string();
        assert!(text.contains("Usage: foreman [DIR]"), "{text}");
        assert!(!text.contains("automation"), "{text}");
    }

    #[test]
    fn a_second_launch_is_read_in_its_own_directory() {
        let args = vec!["foreman".to_owned(), "project".to_owned()];
        let launch = LaunchRequest::forwarded(args, "/home/ann".to_owned()).unwrap();
        assert_eq!(launch.workspace.as_deref(), Some("project"));
        assert_eq!(launch.cwd, PathBuf::from("/home/ann"));
        let bare = LaunchRequest::forwarded(vec!["foreman".to_owned()], "/".to_owned()).unwrap();
        assert_eq!(bare.workspace, None);
    }

    #[test]
    fn a_mistyped_flag_is_refused_with_a_suggestion() {
        let error = parse(&["--verison"]).unwrap_err().render().to_string();
        assert!(
            error.contains("a similar argument exists: '--version'"),
            "{error}"
        );
        assert!(parse(&["/a", "/b"]).is_err());
    }
}
