//! Real folders for the tests: a workspace, a home and a config folder.

use std::path::{Path, PathBuf};

use super::dirs::SlashDirs;

pub(crate) struct Dirs {
    _temp: tempfile::TempDir,
    pub(crate) ws: PathBuf,
    pub(crate) home: PathBuf,
    pub(crate) config: PathBuf,
}

impl Dirs {
    pub(crate) fn new() -> Self {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().canonicalize().unwrap();
        let [ws, home, config] = ["ws", "home", "config"].map(|d| root.join(d));
        for dir in [&ws, &home, &config] {
            std::fs::create_dir_all(dir).unwrap();
        }
        Self {
            _temp: temp,
            ws,
            home,
            config,
        }
    }

    pub(crate) fn dirs(&self) -> SlashDirs {
        SlashDirs {
            workspace: self.ws.clone(),
            home: Some(self.home.clone()),
            config_dir: Some(self.config.clone()),
        }
    }
}

pub(crate) fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}
