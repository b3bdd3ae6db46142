//! Redirects of `http_fetch`, followed by hand so each hop is checked again.
//!
//! The user approved one URL (with private targets marked in the approval request). A redirect
//! must not carry the request somewhere that approval did not cover: to a scheme other than http
//! or https, or to a loopback, private or link-local address, unless it stays on the approved
//! origin (a local dev server redirecting `/docs` to `/docs/` is fine when that server was
//! approved). Such a redirect is not followed and the tool fails, naming the target.

use reqwest::{Method, StatusCode, Url};

/// Most redirects followed for one fetch.
pub const MAX_REDIRECTS: usize = 10;

/// Request headers dropped when a redirect leaves the origin, as browsers and `reqwest` do.
pub const CREDENTIAL_HEADERS: [&str; 4] = [
    "authorization",
    "cookie",
    "proxy-authorization",
    "www-authenticate",
];

/// Why a redirect is not followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RedirectRefusal {
    /// The target's scheme is not http or https.
    Scheme(String),
    /// The target is a loopback, private or link-local address outside the approved origin.
    PrivateTarget,
}

impl std::fmt::Display for RedirectRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Scheme(scheme) => write!(f, "its scheme `{scheme}` is not http or https"),
            Self::PrivateTarget => f.write_str(
                "it points at this machine or a private network, which the approval did not cover",
            ),
        }
    }
}

/// Whether a redirect from a request approved for `approved` to `target` may be followed;
/// `target_private` is whether `target` is a loopback/private/link-local address (see
/// [`is_private_target`](crate::approval::network::is_private_target)).
pub fn check_redirect(
    approved: &Url,
    target: &Url,
    target_private: bool,
) -> Result<(), RedirectRefusal> {
    if !matches!(target.scheme(), "http" | "https") {
        return Err(RedirectRefusal::Scheme(target.scheme().to_owned()));
    }
    if target_private && !same_origin(approved, target) {
        return Err(RedirectRefusal::PrivateTarget);
    }
    Ok(())
}

/// Same scheme, host and port.
pub fn same_origin(a: &Url, b: &Url) -> bool {
    a.scheme() == b.scheme()
        && a.host_str() == b.host_str()
        && a.port_or_known_default() == b.port_or_known_default()
}

/// The method of the request after a redirect with `status`, and whether the body is sent again:
/// 301, 302 and 303 turn anything but GET and HEAD into a bodiless GET; 307 and 308 repeat the
/// request as it was.
pub fn method_after(status: StatusCode, method: &Method) -> (Method, bool) {
    match status {
        StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT => (method.clone(), true),
        _ if *method == Method::GET || *method == Method::HEAD => (method.clone(), false),
        _ => (Method::GET, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn public_redirects_are_followed() {
        let approved = url("https://example.com/a");
        assert_eq!(
            check_redirect(&approved, &url("https://www.example.org/b"), false),
            Ok(())
        );
        assert_eq!(
            check_redirect(&approved, &url("http://example.com/b"), false),
            Ok(())
        );
    }

    #[test]
    fn redirects_to_other_schemes_are_refused() {
        let approved = url("https://example.com/a");
        for target in ["file:///etc/passwd", "ftp://example.com/x", "gopher://h/"] {
            assert_eq!(
                check_redirect(&approved, &url(target), false),
                Err(RedirectRefusal::Scheme(url(target).scheme().to_owned())),
                "{target}"
            );
        }
        // Even on the approved origin's host.
        assert!(check_redirect(&approved, &url("file:///tmp/x"), true).is_err());
    }

    #[test]
    fn redirects_from_public_to_private_targets_are_refused() {
        let approved = url("https://example.com/a");
        for target in [
            "http://127.0.0.1/",
            "http://localhost:8080/admin",
            "http://169.254.169.254/latest/meta-data/",
            "http://10.0.0.1/",
            "http://[::1]/",
        ] {
            assert_eq!(
                check_redirect(&approved, &url(target), true),
                Err(RedirectRefusal::PrivateTarget),
                "{target}"
            );
        }
    }

    #[test]
    fn a_private_approved_origin_may_redirect_within_itself_only() {
        let approved = url("http://127.0.0.1:3000/docs");
        assert_eq!(
            check_redirect(&approved, &url("http://127.0.0.1:3000/docs/"), true),
            Ok(())
        );
        for other in [
            "http://127.0.0.1:3001/",
            "https://127.0.0.1:3000/",
            "http://192.168.1.1:3000/",
            "http://localhost:3000/",
        ] {
            assert_eq!(
                check_redirect(&approved, &url(other), true),
                Err(RedirectRefusal::PrivateTarget),
                "{other}"
            );
        }
    }

    #[test]
    fn methods_after_redirects() {
        let post = Method::POST;
        assert_eq!(method_after(StatusCode::FOUND, &post), (Method::GET, false));
        assert_eq!(
            method_after(StatusCode::SEE_OTHER, &Method::PUT),
            (Method::GET, false)
        );
        assert_eq!(
            method_after(StatusCode::MOVED_PERMANENTLY, &Method::HEAD),
            (Method::HEAD, false)
        );
        assert_eq!(
            method_after(StatusCode::TEMPORARY_REDIRECT, &post),
            (Method::POST, true)
        );
        assert_eq!(
            method_after(StatusCode::PERMANENT_REDIRECT, &post),
            (Method::POST, true)
        );
    }
}
