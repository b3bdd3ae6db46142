//! How the webview paints on Linux when the machine has no GPU.
//!
//! WebKitGTK composites the page with OpenGL. Without a GPU (a virtual machine, a remote
//! desktop, a container, Xvfb) that OpenGL is Mesa's software rasteriser, llvmpipe, and every
//! composited frame is rasterised on the CPU twice over: measured in our e2e window, a 1 MiB
//! write streamed into a card gave 127 frames in 25 s with a longest frame of 3.2 s, against 682
//! frames and 110 ms with compositing off (`docs/MEASUREMENTS.md`). So when no GPU render node
//! exists, compositing is turned off before WebKit starts. A user who sets
//! `WEBKIT_DISABLE_COMPOSITING_MODE` themselves (to any value, `0` included) keeps their choice.

use std::ffi::OsStr;
use std::path::Path;

/// WebKitGTK's switch for its compositing mode.
pub const DISABLE_COMPOSITING: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// What [`choose`] decided, for the log once logging is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rendering {
    /// A GPU render node exists: WebKit's default (GPU compositing).
    Default,
    /// No GPU: compositing was turned off.
    SoftwareWithoutCompositing,
    /// The user set the variable; it was left alone.
    SetByUser,
    /// Not Linux: nothing to decide.
    NotApplicable,
}

impl Rendering {
    pub fn describe(self) -> &'static str {
        match self {
            Rendering::Default => "a GPU render node exists: GPU compositing",
            Rendering::SoftwareWithoutCompositing => {
                "no GPU render node in /dev/dri: compositing turned off (software OpenGL is slow)"
            }
            Rendering::SetByUser => {
                "WEBKIT_DISABLE_COMPOSITING_MODE set by the user: left as it is"
            }
            Rendering::NotApplicable => "not Linux: the platform's default",
        }
    }
}

/// The decision, from whether the variable is set and whether a render node exists.
pub fn decide(user_value: Option<&OsStr>, has_render_node: bool) -> Rendering {
    match (user_value, has_render_node) {
        (Some(_), _) => Rendering::SetByUser,
        (None, true) => Rendering::Default,
        (None, false) => Rendering::SoftwareWithoutCompositing,
    }
}

/// Whether `dri` (normally `/dev/dri`) holds a DRM render node (`renderD128`, …), the device
/// through which a GPU draws. Without one, OpenGL can only be software.
pub fn has_render_node(dri: &Path) -> bool {
    std::fs::read_dir(dri).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|entry| entry.file_name().to_string_lossy().starts_with("renderD"))
    })
}

/// Decides and applies the rendering mode. Must run before Tauri starts (before any other
/// thread exists), because it may set an environment variable.
pub fn choose() -> Rendering {
    if !cfg!(target_os = "linux") {
        return Rendering::NotApplicable;
    }
    let decision = decide(
        std::env::var_os(DISABLE_COMPOSITING).as_deref(),
        has_render_node(Path::new("/dev/dri")),
    );
    if decision == Rendering::SoftwareWithoutCompositing {
        // SAFETY: `run` calls this first, before Tauri, GTK, WebKit, the log plugin or the async
        // runtime start, so no other thread exists that could read the environment meanwhile.
        unsafe { std::env::set_var(DISABLE_COMPOSITING, "1") };
    }
    decision
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    #[test]
    fn turns_compositing_off_only_without_a_render_node_and_without_the_users_choice() {
        assert_eq!(decide(None, false), Rendering::SoftwareWithoutCompositing);
        assert_eq!(decide(None, true), Rendering::Default);
        let zero = OsString::from("0");
        assert_eq!(decide(Some(&zero), false), Rendering::SetByUser);
        assert_eq!(decide(Some(&zero), true), Rendering::SetByUser);
    }

    #[test]
    fn finds_a_render_node_among_the_dri_devices() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!has_render_node(dir.path()));
        std::fs::write(dir.path().join("card0"), "").unwrap();
        assert!(!has_render_node(dir.path()), "a card without a render node");
        std::fs::write(dir.path().join("renderD128"), "").unwrap();
        assert!(has_render_node(dir.path()));
        assert!(!has_render_node(&dir.path().join("missing")));
    }
}
