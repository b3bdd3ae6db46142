//! Telling the user what is wrong with the configuration the session reads, each warning once
//! ([`ConfigWarnings`](super::state::ConfigWarnings) keeps what was told).

use crate::agent::engine::Engine;
use crate::protocol::{ConfigArea, EventMsg};

impl Engine {
    /// Tells the user what is wrong with the session's configuration now and was not told yet
    /// (the session's own, not a sub-agent's).
    pub(crate) fn report_config_warnings(&mut self) {
        if self.frame.depth != 0 {
            return;
        }
        let found = self.tools.config_warnings.look(
            self.tools.hooks.as_ref().map(|h| &h.dirs),
            self.tools.slash.as_ref(),
            &self.workspace,
        );
        self.tell_config_warnings(found);
    }

    /// Sends each of `found` not told yet.
    pub(crate) fn tell_config_warnings(&mut self, found: Vec<(ConfigArea, String)>) {
        for (area, message) in self.tools.config_warnings.untold(found) {
            self.events
                .emit_session(EventMsg::ConfigWarning { area, message });
        }
    }
}
