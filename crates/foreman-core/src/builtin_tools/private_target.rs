//! Whether a URL points at this machine or a private network, so the approval request can flag it.

use std::net::{IpAddr, Ipv4Addr};
use std::time::Duration;

use reqwest::Url;

/// Whether `ip` is loopback, private, link-local, carrier-grade NAT, unique-local or unspecified.
pub fn is_private_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_private_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_private_v4(v4);
            }
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || (first & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (first & 0xffc0) == 0xfe80 // link-local fe80::/10
        }
    }
}

fn is_private_v4(v4: Ipv4Addr) -> bool {
    let [a, b, ..] = v4.octets();
    v4.is_loopback()
        || v4.is_private()
        || v4.is_link_local()
        || v4.is_unspecified()
        || v4.is_broadcast()
        || (a == 100 && (64..128).contains(&b)) // carrier-grade NAT 100.64.0.0/10
        || a == 0
}

/// Whether `url` targets loopback or a private range: IP literals are checked directly, `localhost`
/// names are private, and other host names are resolved (a name that does not resolve is not
/// flagged; the request itself will fail).
pub async fn is_private_target(url: &Url) -> bool {
    let Some(host) = url.host() else { return false };
    match host {
        url::Host::Ipv4(v4) => is_private_ip(IpAddr::V4(v4)),
        url::Host::Ipv6(v6) => is_private_ip(IpAddr::V6(v6)),
        url::Host::Domain(name) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            if name == "localhost" || name.ends_with(".localhost") {
                return true;
            }
            let port = url.port_or_known_default().unwrap_or(80);
            let lookup = tokio::net::lookup_host((name.as_str(), port));
            match tokio::time::timeout(Duration::from_secs(2), lookup).await {
                Ok(Ok(mut addrs)) => addrs.any(|a| is_private_ip(a.ip())),
                _ => false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_addresses() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
        ] {
            assert!(is_private_ip(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "1.1.1.1",
        ] {
            assert!(!is_private_ip(ip.parse().unwrap()), "{ip}");
        }
        assert!(is_private_ip(IpAddr::V6(
            Ipv4Addr::new(192, 168, 0, 1).to_ipv6_mapped()
        )));
    }

    #[tokio::test]
    async fn classifies_urls_without_network() {
        for url in [
            "http://127.0.0.1:8080/x",
            "http://localhost/",
            "http://api.localhost/",
            "http://[::1]/",
            "https://10.0.0.5/",
            "http://192.168.0.10/",
        ] {
            assert!(is_private_target(&Url::parse(url).unwrap()).await, "{url}");
        }
        for url in ["https://93.184.216.34/", "http://[2606:4700::1111]/"] {
            assert!(!is_private_target(&Url::parse(url).unwrap()).await, "{url}");
        }
    }
}
