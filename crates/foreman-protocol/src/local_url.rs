//! [`is_local_url`]: whether a base URL points at this computer or the local network, where a
//! model server (Ollama, LM Studio, llama.cpp, vLLM...) usually needs no API key and runs at
//! local speeds.

use std::net::{Ipv4Addr, Ipv6Addr};

/// True when `url` is an http(s) URL whose host is `localhost` (or a `*.localhost` name), a
/// loopback address (127.0.0.0/8, `::1`), a private IPv4 range (10/8, 172.16/12, 192.168/16),
/// a link-local address (169.254/16, fe80::/10) or an IPv6 unique local address (fc00::/7).
/// Anything else, and anything that does not parse, is not local.
pub fn is_local_url(url: &str) -> bool {
    let Ok(parsed) = url::Url::parse(url.trim()) else {
        return false;
    };
    if !matches!(parsed.scheme(), "http" | "https") {
        return false;
    }
    match parsed.host() {
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        Some(url::Host::Ipv4(ip)) => is_local_ipv4(ip),
        Some(url::Host::Ipv6(ip)) => is_local_ipv6(ip),
        None => false,
    }
}

fn is_local_ipv4(ip: Ipv4Addr) -> bool {
    ip.is_loopback() || ip.is_private() || ip.is_link_local()
}

fn is_local_ipv6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_local_ipv4(v4);
    }
    let first = ip.segments()[0];
    ip.is_loopback() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_computer_and_private_networks_are_local() {
        for url in [
            "http://localhost:11434/v1",
            "http://LOCALHOST:1234/v1",
            "http://ollama.localhost/v1",
            "http://127.0.0.1:8000/v1",
            "http://127.1.2.3/v1",
            "http://[::1]:8080/v1",
            "http://10.0.0.5:8000/v1",
            "http://172.16.1.1/v1",
            "http://172.31.255.255/v1",
            "https://192.168.1.20:8443/v1",
            "http://169.254.3.4/v1",
            "http://[fd12:3456::1]/v1",
            "http://[fe80::1]/v1",
            "http://[::ffff:192.168.0.2]/v1",
        ] {
            assert!(is_local_url(url), "{url}");
        }
    }

    #[test]
    fn hosted_services_and_odd_input_are_not_local() {
        for url in [
            "https://api.anthropic.com",
            "https://api.openai.com/v1",
            "https://openrouter.ai/api/v1",
            "http://172.32.0.1/v1",
            "http://8.8.8.8/v1",
            "http://[2001:db8::1]/v1",
            "http://localhost.example.com/v1",
            "ftp://localhost/",
            "localhost:11434",
            "",
        ] {
            assert!(!is_local_url(url), "{url}");
        }
    }
}
