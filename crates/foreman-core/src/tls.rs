//! The TLS set-up every HTTPS client of the engine shares (providers, `http_fetch`, MCP).
//!
//! reqwest is built with rustls and no crypto provider of its own (`rustls-no-provider`), so one
//! reqwest and one rustls serve both the engine's clients and the MCP client's (`rmcp`), and
//! certificates are checked against the system's roots (`rustls-platform-verifier`). The ring
//! provider must therefore be the process default before any client is built: reqwest panics
//! otherwise.

/// Makes rustls's ring provider the process default; a provider installed earlier by someone
/// else is kept. Cheap after the first call.
pub(crate) fn install_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// `reqwest::Client::builder()`, with the crypto provider installed first.
pub(crate) fn client_builder() -> reqwest::ClientBuilder {
    install_provider();
    reqwest::Client::builder()
}
