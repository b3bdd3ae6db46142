//! [`ConfigWarnings`]: what is wrong with the configuration a session reads (its hooks' settings
//! files, skills and commands, MCP files, rule files), each told to the user once
//! ([`EventMsg::ConfigWarning`](crate::protocol::EventMsg::ConfigWarning)) so that broken
//! configuration is never silent: a settings file that does not parse disables its hooks, and
//! a person relying on a guard hook must hear of it.
//!
//! The files are looked at again when each task starts (and the hooks' whenever they are read,
//! `hooks::Planned::warnings`), so a file broken during the session is told too.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::hooks::HookDirs;
use crate::protocol::ConfigArea;
use crate::slash::{Slash, SlashDirs};

/// The warnings given at the start and those already told.
#[derive(Debug, Default)]
pub(crate) struct ConfigWarnings {
    /// Found by the client or at the start and not read again (MCP files).
    given: Vec<(ConfigArea, String)>,
    /// The user's own rule file.
    user_rules: Option<PathBuf>,
    told: HashSet<(ConfigArea, String)>,
}

impl ConfigWarnings {
    pub(crate) fn new(given: Vec<(ConfigArea, String)>, user_rules: Option<PathBuf>) -> Self {
        Self {
            given,
            user_rules,
            told: HashSet::new(),
        }
    }

    /// Every warning the configuration gives now: the given ones, then the hooks', the skills'
    /// and commands', and the rule files'.
    pub(crate) fn look(
        &self,
        hooks: Option<&HookDirs>,
        slash: Option<&SlashDirs>,
        workspace: &Path,
    ) -> Vec<(ConfigArea, String)> {
        let mut found = self.given.clone();
        if let Some(dirs) = hooks {
            let loaded = crate::hooks::config::load(dirs);
            found.extend(loaded.warnings.into_iter().map(|w| (ConfigArea::Hooks, w)));
        }
        if let Some(dirs) = slash {
            let loaded = Slash::load(dirs);
            found.extend(loaded.warnings.into_iter().map(|w| (ConfigArea::Slash, w)));
        }
        let rules = crate::project_rules::rule_warnings(workspace, self.user_rules.as_deref());
        found.extend(rules.into_iter().map(|w| (ConfigArea::Rules, w)));
        found
    }

    /// Those of `found` not told yet, in order, marked as told.
    pub(crate) fn untold(&mut self, found: Vec<(ConfigArea, String)>) -> Vec<(ConfigArea, String)> {
        found
            .into_iter()
            .filter(|warning| self.told.insert(warning.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_warning_is_told_once_and_a_new_one_later() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path();
        let hooks = HookDirs {
            workspace: ws.to_path_buf(),
            home: None,
            config_dir: None,
        };
        let mut warnings =
            ConfigWarnings::new(vec![(ConfigArea::Mcp, "mcp.json: bad".into())], None);
        let first = warnings.look(Some(&hooks), None, ws);
        assert_eq!(
            warnings.untold(first),
            [(ConfigArea::Mcp, "mcp.json: bad".to_owned())]
        );
        std::fs::create_dir_all(ws.join(".claude")).unwrap();
        std::fs::write(ws.join(".claude/settings.json"), "{\"hooks\": ").unwrap();
        let again = warnings.look(Some(&hooks), None, ws);
        let told = warnings.untold(again);
        assert_eq!(told.len(), 1, "{told:?}");
        assert_eq!(told[0].0, ConfigArea::Hooks);
        assert!(
            told[0]
                .1
                .starts_with(".claude/settings.json: not valid JSON"),
            "{told:?}"
        );
        let third = warnings.look(Some(&hooks), None, ws);
        assert!(warnings.untold(third).is_empty());
    }
}
