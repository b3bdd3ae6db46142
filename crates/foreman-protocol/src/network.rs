//! What the user is told about a request that reaches this computer or a private network.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A fetch whose target is not on the public internet: the approval request carries it, the card
/// shows it in warning colours, and it asks in every mode unless a rule names the host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PrivateTarget {
    /// The host as the URL names it.
    pub host: String,
    /// The address it is, or resolved to.
    pub address: String,
    pub kind: PrivateTargetKind,
}

/// Which kind of non-public address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PrivateTargetKind {
    /// This computer (`127.0.0.0/8`, `::1`, `localhost`, `0.0.0.0`).
    Loopback,
    /// A cloud's instance metadata service, which hands out credentials (`169.254.169.254`…).
    CloudMetadata,
    /// A link-local address (`169.254.0.0/16`, `fe80::/10`).
    LinkLocal,
    /// A private or shared network (`10/8`, `172.16/12`, `192.168/16`, `100.64/10`, `fc00::/7`).
    PrivateNetwork,
}

impl PrivateTarget {
    /// One sentence for the user: what the target is.
    pub fn describe(&self) -> String {
        let what = match self.kind {
            PrivateTargetKind::Loopback => "is this computer (loopback)",
            PrivateTargetKind::CloudMetadata => {
                "is a cloud metadata service, which can hand out credentials"
            }
            PrivateTargetKind::LinkLocal => "is a link-local address on your network",
            PrivateTargetKind::PrivateNetwork => "is on a private network",
        };
        if self.host == self.address {
            format!("{} {what}", self.host)
        } else {
            format!("{} ({}) {what}", self.host, self.address)
        }
    }
}
