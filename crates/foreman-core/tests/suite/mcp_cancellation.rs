//! Cancelling an MCP call, seen from the server: an in-process `rmcp` server on 127.0.0.1 over
//! streamable HTTP with one slow tool records every call it starts, every
//! `notifications/cancelled` it receives, and every call whose work was stopped. The calls go
//! through the real `McpHub` and its `rmcp` client.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use foreman_core::mcp::{HubOptions, McpConfig, McpHub, ServerSource, ServerState};
use foreman_core::tools::{OutputSink, ToolError, codes};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelledNotificationParam,
    ContentBlock, ListToolsResult, PaginatedRequestParams, RequestId, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// What the server saw.
#[derive(Debug, Default)]
struct Seen {
    /// Request ids of the `slow` calls it started.
    started: Vec<RequestId>,
    /// The `notifications/cancelled` it received.
    cancelled: Vec<CancelledNotificationParam>,
    /// Request ids of the `slow` calls whose work was stopped by a cancellation.
    stopped: Vec<RequestId>,
}

/// A server with one tool, `slow`, that works for a minute unless cancelled.
#[derive(Debug, Clone)]
struct SlowServer {
    seen: Arc<Mutex<Seen>>,
}

impl ServerHandler for SlowServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = json!({"type": "object", "properties": {}});
        let schema = schema.as_object().unwrap().clone();
        Ok(ListToolsResult::with_all_items(vec![Tool::new(
            "slow",
            "Works for a minute",
            schema,
        )]))
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.seen.lock().unwrap().started.push(context.id.clone());
        tokio::select! {
            () = context.ct.cancelled() => {
                self.seen.lock().unwrap().stopped.push(context.id.clone());
                Ok(CallToolResult::success(vec![ContentBlock::text("stopped")]).into())
            }
            () = tokio::time::sleep(Duration::from_secs(60)) => {
                Ok(CallToolResult::success(vec![ContentBlock::text("finished")]).into())
            }
        }
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        _context: NotificationContext<RoleServer>,
    ) {
        self.seen.lock().unwrap().cancelled.push(notification);
    }
}

/// Serves `SlowServer` on 127.0.0.1; returns its URL and what it sees. Stops with `stop`.
async fn serve(stop: CancellationToken) -> (String, Arc<Mutex<Seen>>) {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let handler = SlowServer {
        seen: Arc::clone(&seen),
    };
    let config = StreamableHttpServerConfig::default().with_cancellation_token(stop.child_token());
    let service = TowerToHyperService::new(StreamableHttpService::new(
        move || Ok(handler.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        loop {
            let stream = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(_) => break,
                },
                () = stop.cancelled() => break,
            };
            let service = service.clone();
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    (url, seen)
}

async fn hub_for(url: &str) -> McpHub {
    let text = json!({"mcpServers": {"slow": {"url": url}}}).to_string();
    let config = McpConfig::parse(&text, ServerSource::User, Path::new("test.json")).unwrap();
    let hub = McpHub::start(config, HubOptions::default()).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let state = hub.status(&[]).servers[0].state.clone();
        match state {
            ServerState::Connected { .. } => return hub,
            other => assert!(Instant::now() < deadline, "not connected: {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Polls `seen` until `pred` holds (10 s at most).
async fn until(seen: &Mutex<Seen>, pred: impl Fn(&Seen) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !pred(&seen.lock().unwrap()) {
        assert!(
            Instant::now() < deadline,
            "the server did not see it: {:?}",
            seen.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Starts `slow`, cancels it once the server runs it, and returns the call's outcome and how
/// long it took after the cancel.
async fn call_and_cancel(
    hub: &McpHub,
    seen: &Mutex<Seen>,
) -> (Result<String, ToolError>, Duration) {
    let cancel = CancellationToken::new();
    let call = hub.call(
        &[],
        "slow__slow",
        json!({}),
        None,
        cancel.clone(),
        OutputSink::discard(),
    );
    let call = tokio::spawn(async move { call.await.map(|output| output.text) });
    until(seen, |s| !s.started.is_empty()).await;
    let cancelled_at = Instant::now();
    cancel.cancel();
    let outcome = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("the cancelled call did not end")
        .unwrap();
    (outcome, cancelled_at.elapsed())
}

#[tokio::test]
async fn a_cancelled_call_reaches_the_server_as_notifications_cancelled_for_its_request() {
    let stop = CancellationToken::new();
    let (url, seen) = serve(stop.clone()).await;
    let hub = hub_for(&url).await;
    let (outcome, took) = call_and_cancel(&hub, &seen).await;
    assert_eq!(
        outcome,
        Err(ToolError::new(codes::CANCELLED, "the call was cancelled"))
    );
    assert!(
        took < Duration::from_secs(2),
        "the call ended {took:?} after the cancel"
    );
    until(&seen, |s| !s.cancelled.is_empty() && !s.stopped.is_empty()).await;
    {
        let seen = seen.lock().unwrap();
        assert_eq!(seen.started.len(), 1, "{seen:?}");
        let call_id = seen.started[0].clone();
        assert_eq!(seen.cancelled.len(), 1, "{seen:?}");
        assert_eq!(seen.cancelled[0].request_id, Some(call_id.clone()));
        assert_eq!(
            seen.cancelled[0].reason.as_deref(),
            Some("cancelled by the user")
        );
        assert_eq!(seen.stopped, vec![call_id]);
    }
    hub.shutdown().await;
    stop.cancel();
}

#[tokio::test]
async fn a_call_past_its_timeout_reaches_the_server_as_notifications_cancelled() {
    let stop = CancellationToken::new();
    let (url, seen) = serve(stop.clone()).await;
    let text = json!({"mcpServers": {"slow": {"url": url, "timeout": 1}}}).to_string();
    let config = McpConfig::parse(&text, ServerSource::User, Path::new("test.json")).unwrap();
    let hub = McpHub::start(config, HubOptions::default()).await.unwrap();
    hub.wait_settled(Duration::from_secs(30)).await;
    let started = Instant::now();
    let outcome = hub
        .call(
            &[],
            "slow__slow",
            json!({}),
            None,
            CancellationToken::new(),
            OutputSink::discard(),
        )
        .await;
    assert_eq!(
        outcome,
        Err(ToolError::new(
            codes::TIMEOUT,
            "the MCP call took longer than 1 s"
        ))
    );
    assert!(started.elapsed() < Duration::from_secs(4));
    until(&seen, |s| !s.cancelled.is_empty()).await;
    {
        let seen = seen.lock().unwrap();
        assert_eq!(seen.cancelled[0].request_id, Some(seen.started[0].clone()));
        assert_eq!(seen.cancelled[0].reason.as_deref(), Some("timed out"));
    }
    hub.shutdown().await;
    stop.cancel();
}
