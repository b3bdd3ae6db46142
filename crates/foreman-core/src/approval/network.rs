//! Whether a host is this computer, a cloud metadata service or a private network, so that an
//! approval request can flag it and a redirect there is refused.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use reqwest::Url;

use crate::protocol::{PrivateTarget, PrivateTargetKind};

/// How long a host name may take to resolve before it is taken as public (the request itself
/// will then fail or go where the name points).
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(2);

/// Names that are always a metadata service, whatever they resolve to here.
const METADATA_NAMES: [&str; 3] = ["metadata.google.internal", "metadata", "instance-data"];

/// The kind of `ip` when it is not a public address.
pub fn classify_ip(ip: IpAddr) -> Option<PrivateTargetKind> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => classify_v4(v4),
            None => classify_v6(v6),
        },
    }
}

fn classify_v4(v4: Ipv4Addr) -> Option<PrivateTargetKind> {
    let [a, b, ..] = v4.octets();
    if v4.is_loopback() || v4.is_unspecified() || a == 0 {
        Some(PrivateTargetKind::Loopback)
    } else if v4 == Ipv4Addr::new(169, 254, 169, 254)
        || v4 == Ipv4Addr::new(169, 254, 170, 2)
        || v4 == Ipv4Addr::new(100, 100, 100, 200)
    {
        // AWS, GCP and Azure; ECS task metadata; Alibaba Cloud.
        Some(PrivateTargetKind::CloudMetadata)
    } else if v4.is_link_local() {
        Some(PrivateTargetKind::LinkLocal)
    } else if v4.is_private() || v4.is_broadcast() || (a == 100 && (64..128).contains(&b)) {
        // 100.64.0.0/10 is carrier-grade NAT.
        Some(PrivateTargetKind::PrivateNetwork)
    } else {
        None
    }
}

fn classify_v6(v6: Ipv6Addr) -> Option<PrivateTargetKind> {
    let first = v6.segments()[0];
    if v6.is_loopback() || v6.is_unspecified() {
        Some(PrivateTargetKind::Loopback)
    } else if v6 == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
        Some(PrivateTargetKind::CloudMetadata)
    } else if (first & 0xffc0) == 0xfe80 {
        Some(PrivateTargetKind::LinkLocal)
    } else if (first & 0xfe00) == 0xfc00 {
        Some(PrivateTargetKind::PrivateNetwork)
    } else {
        None
    }
}

/// Whether `ip` is loopback, private, link-local, carrier-grade NAT, unique-local or unspecified.
pub fn is_private_ip(ip: IpAddr) -> bool {
    classify_ip(ip).is_some()
}

/// What is known of `host` without a lookup: `Ok(target)` for an address or a name that is
/// private by itself (`localhost`, metadata names), `Err(())` for a name that must be resolved.
fn known_without_lookup(host: &str) -> Result<Option<PrivateTarget>, ()> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let target = |kind, address: &str| PrivateTarget {
        host: host.to_owned(),
        address: address.to_owned(),
        kind,
    };
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok(classify_ip(ip).map(|kind| target(kind, &ip.to_string())));
    }
    let name = bare.trim_end_matches('.').to_ascii_lowercase();
    if name == "localhost" || name.ends_with(".localhost") {
        return Ok(Some(target(PrivateTargetKind::Loopback, "127.0.0.1")));
    }
    if METADATA_NAMES.contains(&name.as_str()) {
        return Ok(Some(target(PrivateTargetKind::CloudMetadata, &name)));
    }
    Err(())
}

/// Whether `host` (a URL's host: a name, an IPv4 address or a bracketed IPv6 address) reaches
/// this computer or a private network. Names are resolved; one that does not resolve in time is
/// not flagged.
pub async fn private_target(host: &str) -> Option<PrivateTarget> {
    if let Ok(known) = known_without_lookup(host) {
        return known;
    }
    let name = host.trim_end_matches('.');
    let lookup = tokio::net::lookup_host((name, 443));
    let addresses = tokio::time::timeout(LOOKUP_TIMEOUT, lookup)
        .await
        .ok()?
        .ok()?;
    addresses.into_iter().find_map(|address| {
        classify_ip(address.ip()).map(|kind| PrivateTarget {
            host: host.to_owned(),
            address: address.ip().to_string(),
            kind,
        })
    })
}

/// Whether `url` targets this computer or a private network (see [`private_target`]).
pub async fn is_private_target(url: &Url) -> bool {
    match url.host_str() {
        Some(host) => private_target(host).await.is_some(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_addresses() {
        for (ip, kind) in [
            ("127.0.0.1", PrivateTargetKind::Loopback),
            ("0.0.0.0", PrivateTargetKind::Loopback),
            ("::1", PrivateTargetKind::Loopback),
            ("10.1.2.3", PrivateTargetKind::PrivateNetwork),
            ("172.16.0.1", PrivateTargetKind::PrivateNetwork),
            ("172.31.255.255", PrivateTargetKind::PrivateNetwork),
            ("192.168.1.1", PrivateTargetKind::PrivateNetwork),
            ("100.64.0.1", PrivateTargetKind::PrivateNetwork),
            ("fd00::1", PrivateTargetKind::PrivateNetwork),
            ("169.254.169.254", PrivateTargetKind::CloudMetadata),
            ("fd00:ec2::254", PrivateTargetKind::CloudMetadata),
            ("169.254.1.1", PrivateTargetKind::LinkLocal),
            ("fe80::1", PrivateTargetKind::LinkLocal),
        ] {
            assert_eq!(classify_ip(ip.parse().unwrap()), Some(kind), "{ip}");
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
    async fn classifies_hosts_without_network() {
        for (host, kind) in [
            ("127.0.0.1", PrivateTargetKind::Loopback),
            ("localhost", PrivateTargetKind::Loopback),
            ("api.localhost", PrivateTargetKind::Loopback),
            ("[::1]", PrivateTargetKind::Loopback),
            ("10.0.0.5", PrivateTargetKind::PrivateNetwork),
            ("169.254.169.254", PrivateTargetKind::CloudMetadata),
            ("metadata.google.internal", PrivateTargetKind::CloudMetadata),
        ] {
            let target = private_target(host)
                .await
                .unwrap_or_else(|| panic!("{host}"));
            assert_eq!(target.kind, kind, "{host}");
            assert_eq!(target.host, host);
        }
        for url in ["https://93.184.216.34/", "http://[2606:4700::1111]/"] {
            assert!(!is_private_target(&Url::parse(url).unwrap()).await, "{url}");
        }
        assert!(is_private_target(&Url::parse("http://localhost:3000/x").unwrap()).await);
    }
}
