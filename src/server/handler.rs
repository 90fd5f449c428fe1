//! The hand-written rmcp `ServerHandler`: one instance per connection.

use std::sync::{Arc, OnceLock};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, InitializeRequestParams, InitializeResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ServerConfig, SubscribeRequestParams, SubscriptionFilter, Tool,
    UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};

use super::{ServerShared, WINDOWS_URI};
use crate::hub::Outcome;

/// Serves one connection; all state lives in the shared server (and, through it, the hub).
#[derive(Clone)]
pub(crate) struct BridgeHandler {
    shared: Arc<ServerShared>,
    /// This connection's legacy session, once `initialize` registered it.
    session: Arc<OnceLock<u64>>,
}

impl BridgeHandler {
    pub fn new(shared: Arc<ServerShared>) -> Self {
        Self { shared, session: Arc::new(OnceLock::new()) }
    }
}

/// The single resource's listing entry.
fn windows_resource() -> Resource {
    Resource::new(WINDOWS_URI, "windows")
        .with_title("Application windows")
        .with_description(
            "Every window: topology, operableWindowIds and each window's summary and blocks. Subscribe for changes.",
        )
        .with_mime_type("application/json")
}

/// A tool outcome as an MCP result: `structuredContent`, plus its compact JSON as the one text
/// block (one line, lossless, for clients that read only `content`).
fn call_result(outcome: &Outcome) -> CallToolResult {
    let (value, is_error) = match outcome {
        Ok(r) => (serde_json::to_value(r), false),
        Err(e) => (serde_json::to_value(e), true),
    };
    let value = value.unwrap_or_default();
    if is_error { CallToolResult::structured_error(value) } else { CallToolResult::structured(value) }
}

impl ServerHandler for BridgeHandler {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        if self.session.get().is_none() {
            let id = self.shared.connections.add_session(context.peer.clone());
            let _ = self.session.set(id);
        }
        self.negotiate_initialize(&request)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![windows_resource()]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != WINDOWS_URI {
            return Err(ErrorData::resource_not_found(
                format!("Unknown resource {}; the only one is {WINDOWS_URI}", request.uri),
                None,
            ));
        }
        self.shared.hub.first_frame().await;
        let json = self.shared.hub.snapshot().json.to_string();
        Ok(ReadResourceResult::new(vec![ResourceContents::text(json, WINDOWS_URI).with_mime_type("application/json")])
            .into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        // Other URIs are accepted and never updated: there is nothing else to watch.
        if let (Some(id), true) = (self.session.get(), request.uri == WINDOWS_URI) {
            self.shared.connections.set_subscribed(*id, true);
        }
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let (Some(id), true) = (self.session.get(), request.uri == WINDOWS_URI) {
            self.shared.connections.set_subscribed(*id, false);
        }
        Ok(())
    }

    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.tools_list_changed = requested.tools_list_changed.filter(|b| *b);
        accepted.resource_subscriptions = requested
            .resource_subscriptions
            .as_ref()
            .map(|uris| uris.iter().filter(|u| *u == WINDOWS_URI).cloned().collect());
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let id = self.shared.connections.add_listener(context.sink().clone());
        context.cancelled().await;
        self.shared.connections.remove_listener(id);
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.shared.hub.first_frame().await;
        Ok(ListToolsResult::with_all_items(self.shared.tools().as_ref().clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.shared.tools().iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.shared.hub.first_frame().await;
        let args = request.arguments.unwrap_or_default();
        let outcome = self.shared.hub.call(&request.name, args).await;
        if let Err(e) = &outcome {
            tracing::info!(tool = %request.name, code = e.code.as_str(), "tool call failed");
        } else {
            tracing::info!(tool = %request.name, "tool call done");
        }
        Ok(call_result(&outcome).into())
    }
}
