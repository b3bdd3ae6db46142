//! What each window shows, by window label: the folder it was opened for, the workspace and the
//! session it shows (a page loaded again after its web process ended opens them again), and which
//! window already shows a folder (a second `foreman DIR` brings that one to the front).
//!
//! Plain bookkeeping with no Tauri in it; `windows.rs` does the windows themselves.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::launch::LaunchRequest;
use crate::view::WorkspaceView;

/// The label of the window the app starts with (`tauri.conf.json`).
pub const FIRST_WINDOW: &str = "main";

/// The prefix of every other window's label; the capability grants `window-*`.
const LABEL_PREFIX: &str = "window-";

/// One window's part of the app's state.
#[derive(Debug, Default)]
pub struct WindowState {
    /// What the window was opened for, until its page asks (`startup` takes it once).
    pub launch: Option<LaunchRequest>,
    /// The folder the window was opened for, before its page has opened it: a second launch
    /// with the same folder in that moment finds this window instead of opening another.
    pub opening: Option<PathBuf>,
    /// The workspace the window shows (`None`: the welcome screen).
    pub shown: Option<WorkspaceView>,
    /// The session the window shows in that workspace (`None`: a new conversation).
    pub shown_session: Option<String>,
}

impl WindowState {
    /// The folder this window shows or is about to show.
    fn folder(&self) -> Option<PathBuf> {
        match &self.shown {
            Some(view) => Some(PathBuf::from(&view.path)),
            None => self.opening.clone(),
        }
    }
}

/// Every open window's state, and the labels new windows get.
#[derive(Debug, Default)]
pub struct Windows {
    by_label: HashMap<String, WindowState>,
    /// The windows in the order they last had focus, the most recent last.
    focus_order: Vec<String>,
    /// How many labels `next_label` has handed out.
    made: u32,
}

impl Windows {
    /// Registers a window with what it was opened for.
    pub fn add(&mut self, label: &str, launch: Option<LaunchRequest>, opening: Option<PathBuf>) {
        self.by_label.insert(
            label.to_owned(),
            WindowState {
                launch,
                opening,
                ..WindowState::default()
            },
        );
        self.focused(label);
    }

    /// The window for `launch`, decided at once so that two launches of one folder in quick
    /// succession get one window: the one showing its folder (`folder`, resolved), or a new
    /// window registered here with `launch`.
    pub fn claim(&mut self, launch: Option<LaunchRequest>, folder: Option<PathBuf>) -> Claim {
        if let Some(label) = folder.as_deref().and_then(|f| self.showing(f)) {
            return Claim::Existing(label);
        }
        let label = self.next_label();
        self.add(&label, launch, folder);
        Claim::New(label)
    }

    /// A label no window has had in this run: `window-2`, `window-3`, …
    fn next_label(&mut self) -> String {
        loop {
            self.made += 1;
            let label = format!("{LABEL_PREFIX}{}", self.made + 1);
            if !self.by_label.contains_key(&label) {
                return label;
            }
        }
    }

    /// The state of window `label`, made on first use (a window this list has not seen yet).
    pub fn get(&mut self, label: &str) -> &mut WindowState {
        self.by_label.entry(label.to_owned()).or_default()
    }

    /// Window `label` has focus now.
    pub fn focused(&mut self, label: &str) {
        self.focus_order.retain(|l| l != label);
        self.focus_order.push(label.to_owned());
    }

    /// Window `label` closed: its state, if it had any.
    pub fn remove(&mut self, label: &str) -> Option<WindowState> {
        self.focus_order.retain(|l| l != label);
        self.by_label.remove(label)
    }

    /// How many windows are open.
    pub fn len(&self) -> usize {
        self.by_label.len()
    }

    /// The window that shows (or is opening) `folder`; the one that had focus last if several do.
    pub fn showing(&self, folder: &Path) -> Option<String> {
        self.focus_order
            .iter()
            .rev()
            .chain(self.by_label.keys())
            .find(|label| {
                self.by_label
                    .get(label.as_str())
                    .and_then(WindowState::folder)
                    .is_some_and(|f| f == folder)
            })
            .cloned()
    }

    /// The window that had focus last.
    pub fn last_focused(&self) -> Option<String> {
        self.focus_order
            .last()
            .or_else(|| self.by_label.keys().next())
            .cloned()
    }

    /// The folders the open windows show or are about to show.
    pub fn folders(&self) -> HashSet<PathBuf> {
        self.by_label
            .values()
            .filter_map(WindowState::folder)
            .collect()
    }

    /// Forgets `session` wherever a window shows it (it was deleted).
    pub fn forget_session(&mut self, session: &str) {
        for state in self.by_label.values_mut() {
            if state.shown_session.as_deref() == Some(session) {
                state.shown_session = None;
            }
        }
    }
}

/// Which window a launch goes to.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim {
    /// The window that already shows the folder: it comes to the front.
    Existing(String),
    /// A window to make, already registered with its launch request.
    New(String),
}

/// The running MCP hubs to stop once a window closed: those of folders that no open window
/// shows and no running session works in.
pub fn unused_hubs(
    hubs: impl IntoIterator<Item = PathBuf>,
    shown: &HashSet<PathBuf>,
    working: &HashSet<PathBuf>,
) -> Vec<PathBuf> {
    hubs.into_iter()
        .filter(|hub| !shown.contains(hub) && !working.contains(hub))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(path: &str) -> WorkspaceView {
        WorkspaceView {
            name: path.rsplit('/').next().unwrap_or_default().to_owned(),
            path: path.to_owned(),
        }
    }

    #[test]
    fn new_windows_get_labels_the_capability_grants_and_never_reuse_one() {
        let mut windows = Windows::default();
        windows.add(FIRST_WINDOW, None, None);
        let second = windows.next_label();
        assert_eq!(second, "window-2");
        windows.add(&second, None, None);
        windows.remove(&second);
        let third = windows.next_label();
        assert_eq!(third, "window-3");
        assert!(third.starts_with(LABEL_PREFIX));
    }

    #[test]
    fn a_launch_of_a_folder_being_opened_gets_that_window_not_another() {
        let mut windows = Windows::default();
        windows.add(FIRST_WINDOW, None, None);
        let beta = Some(PathBuf::from("/w/beta"));
        let launch = LaunchRequest {
            workspace: Some("/w/beta".into()),
            cwd: PathBuf::from("/"),
        };
        assert_eq!(
            windows.claim(Some(launch.clone()), beta.clone()),
            Claim::New("window-2".into())
        );
        // The second launch comes before the new window's page has asked for anything.
        assert_eq!(
            windows.claim(Some(launch), beta),
            Claim::Existing("window-2".into())
        );
        // With no folder, always a new window.
        assert_eq!(windows.claim(None, None), Claim::New("window-3".into()));
        assert!(windows.get("window-2").launch.is_some());
        assert_eq!(windows.len(), 3);
    }

    #[test]
    fn a_folder_is_found_in_the_window_showing_it_or_opening_it() {
        let mut windows = Windows::default();
        windows.add(FIRST_WINDOW, None, None);
        windows.get(FIRST_WINDOW).shown = Some(view("/w/alpha"));
        windows.add("window-2", None, Some(PathBuf::from("/w/beta")));
        assert_eq!(
            windows.showing(Path::new("/w/alpha")).as_deref(),
            Some("main")
        );
        // Not opened by its page yet, but already this window's.
        assert_eq!(
            windows.showing(Path::new("/w/beta")).as_deref(),
            Some("window-2")
        );
        assert_eq!(windows.showing(Path::new("/w/gamma")), None);
        // Once the page shows another folder, the one it was opened for is not its any more.
        windows.get("window-2").shown = Some(view("/w/gamma"));
        assert_eq!(windows.showing(Path::new("/w/beta")), None);
        let folders = windows.folders();
        assert!(folders.contains(Path::new("/w/alpha")) && folders.contains(Path::new("/w/gamma")));
        assert_eq!(folders.len(), 2);
    }

    #[test]
    fn of_two_windows_on_one_folder_the_last_focused_is_found() {
        let mut windows = Windows::default();
        windows.add("main", None, None);
        windows.add("window-2", None, None);
        windows.get("main").shown = Some(view("/w/alpha"));
        windows.get("window-2").shown = Some(view("/w/alpha"));
        windows.focused("main");
        assert_eq!(
            windows.showing(Path::new("/w/alpha")).as_deref(),
            Some("main")
        );
        windows.focused("window-2");
        assert_eq!(
            windows.showing(Path::new("/w/alpha")).as_deref(),
            Some("window-2")
        );
        assert_eq!(windows.last_focused().as_deref(), Some("window-2"));
        windows.remove("window-2");
        assert_eq!(windows.last_focused().as_deref(), Some("main"));
        assert_eq!(windows.len(), 1);
    }

    #[test]
    fn each_window_keeps_its_own_launch_and_session() {
        let mut windows = Windows::default();
        let launch = LaunchRequest {
            workspace: Some("/w/alpha".into()),
            cwd: PathBuf::from("/"),
        };
        windows.add("main", Some(launch), None);
        windows.add("window-2", None, None);
        windows.get("main").shown_session = Some("s1".into());
        windows.get("window-2").shown_session = Some("s2".into());
        assert!(windows.get("window-2").launch.is_none());
        let taken = windows.get("main").launch.take();
        assert_eq!(taken.and_then(|l| l.workspace).as_deref(), Some("/w/alpha"));
        assert!(windows.get("main").launch.is_none(), "taken once");
        windows.forget_session("s1");
        assert_eq!(windows.get("main").shown_session, None);
        assert_eq!(windows.get("window-2").shown_session.as_deref(), Some("s2"));
    }

    #[test]
    fn a_hub_stops_only_when_no_window_shows_its_folder_and_no_session_works_there() {
        let hubs = ["/w/alpha", "/w/beta", "/w/gamma"].map(PathBuf::from);
        let shown = HashSet::from([PathBuf::from("/w/alpha")]);
        let working = HashSet::from([PathBuf::from("/w/beta")]);
        assert_eq!(
            unused_hubs(hubs, &shown, &working),
            vec![PathBuf::from("/w/gamma")]
        );
    }
}
