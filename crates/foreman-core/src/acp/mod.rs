//! External agents over the Agent Client Protocol (ACP v1, JSON-RPC on the agent's stdio):
//! what an agent is and the ones Foreman knows by name ([`spec`]; the person's own in
//! [`agents_file`]), the messages a client reads
//! ([`wire`]), and one running agent ([`connection`]: its confined process tree, requests and
//! their answers, what it asks of the client). The engine side, which turns what the agent does
//! into Foreman's cards, approvals and checkpoints, is `agent/acp/`.

pub mod agents_file;
pub mod connection;
pub mod spec;
pub mod wire;

pub use self::connection::{AcpConnection, AcpError, FromAgent, RpcError};
pub use self::spec::AgentSpec;
