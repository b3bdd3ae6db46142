//! The engine's side of an external agent over ACP (the connection itself is
//! [`crate::acp`]): [`state::SessionAgent`] is what does a session's work, Foreman's loop or an
//! external agent, and the files here make the agent's session one of Foreman's.
//!
//! | file            | its `impl Engine` methods |
//! |-----------------|---|
//! | `start.rs`      | `start_agent` |
//! | `prompt.rs`     | `run_agent_turn`, `tell_agent` |
//! | `updates.rs`    | `agent_notification`, `agent_card`, `advance`, `shown_path` |
//! | `requests.rs`   | `agent_request` (files, terminals) |
//! | `permission.rs` | `agent_permission` |
//! | `idle.rs`       | `agent_between_turns` (and `idle_message`) |
//! | `settings.rs`   | `emit_agent_settings`, `agent_offers`, `set_agent_setting` |

pub(crate) mod idle;
mod permission;
mod prompt;
mod requests;
mod settings;
mod start;
pub(crate) mod state;
mod updates;
