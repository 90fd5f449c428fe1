//! The hand-written rmcp `ServerHandler`: one instance per connection.

use std::sync::{Arc, OnceLock};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, DiscoverResult, ErrorData, InitializeRequestParams,
    InitializeResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerConfig, SubscribeRequestParams,
    SubscriptionFilter, Tool, UnsubscribeRequestParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{RoleServer, ServerHandler};

use super::bridge_tools::{self, Dispatch, READ_WINDOWS};
use super::connections::Revisions;
use super::result::call_result;
use super::serving::Serving;
use super::view_window::{self, VIEW_WINDOW};
use super::{ClientProfile, ResultView, ServerShared, WINDOWS_URI};
use crate::hub::{ClientId, Outcome, clipped};

/// Serves one connection; all state lives in the shared server (and, through it, the hub).
#[derive(Clone)]
pub(crate) struct BridgeHandler {
    shared: Arc<ServerShared>,
    /// This connection's legacy session, once `initialize` registered it.
    session: Arc<OnceLock<u64>>,
    /// This connection's client profile, chosen from the first `clientInfo` seen (`initialize`,
    /// or a 2026-07-28 request's `_meta`).
    profile: Arc<OnceLock<ClientProfile>>,
    /// The transport's stop state: calls are refused once it stops, and counted until answered.
    serving: Arc<Serving>,
    /// This connection's `subscriptions/listen` streams (2026-07-28), while open.
    listeners: Arc<parking_lot::Mutex<Vec<u64>>>,
    /// The state when each `subscriptions/listen` stream was accepted, oldest first, until the
    /// stream is registered (rmcp acknowledges it in between): at most [`LISTENS_ACCEPTED`].
    accepted: Arc<parking_lot::Mutex<std::collections::VecDeque<Revisions>>>,
    /// Who this connection's calls come from, for what connections share (the calls the app
    /// keeps to answer later).
    client: ClientId,
}

impl BridgeHandler {
    pub fn new(shared: Arc<ServerShared>, serving: Arc<Serving>) -> Self {
        Self {
            shared,
            session: Arc::new(OnceLock::new()),
            profile: Arc::new(OnceLock::new()),
            serving,
            listeners: Arc::default(),
            accepted: Arc::default(),
            client: ClientId::fresh(),
        }
    }

    /// Where the connection's profile is kept once chosen (the local endpoint names the client
    /// that left by it).
    pub fn profile_slot(&self) -> Arc<OnceLock<ClientProfile>> {
        Arc::clone(&self.profile)
    }

    /// The connection's profile; chosen (and logged) the first time a client name is known.
    fn profile(&self, client_name: Option<&str>) -> ClientProfile {
        *self.profile.get_or_init(|| {
            if let Some(name) = client_name {
                self.shared.hub.name_client(self.client, name);
            }
            let profile = self.shared.policy.profile_for(client_name);
            tracing::debug!(
                client = %client_name.map_or("(none)".into(), clipped),
                profile = profile.label,
                "client profile chosen"
            );
            profile
        })
    }

    fn profile_of(&self, context: &RequestContext<RoleServer>) -> ClientProfile {
        if let Some(p) = self.profile.get() {
            return *p;
        }
        self.profile(context.client_info().as_ref().map(|i| i.name.as_str()))
    }

    /// The bridge's own tools on this connection: `app__read_windows` and `app__view_window`
    /// (unless the app turned them off) and, unless the app chose `Compat::Off`, the three
    /// dispatchers.
    fn bridge_tools(&self) -> impl Iterator<Item = Tool> {
        let read = (!self.shared.policy.no_read_windows)
            .then(|| bridge_tools::read_windows_tool(self.shared.policy.accommodations()));
        let view = (!self.shared.policy.no_view_window).then(view_window::view_window_tool);
        let calls = self.shared.policy.accommodations().then(bridge_tools::call_tools);
        read.into_iter().chain(view).chain(calls.into_iter().flatten())
    }

    /// Tells this connection what the call changed before its result is written, waiting at
    /// most [`NOTIFY_BEFORE_RESULT`] for a client that does not read its notifications.
    async fn notify_before_result(&self) {
        let ids: Vec<u64> =
            self.session.get().copied().into_iter().chain(self.listeners.lock().iter().copied()).collect();
        if ids.is_empty() {
            return;
        }
        if tokio::time::timeout(NOTIFY_BEFORE_RESULT, self.shared.connections.flush(ids)).await.is_err() {
            tracing::debug!("the client is not reading its notifications; the result goes out without them");
        }
    }
}

/// The longest a result waits for the notifications its call caused to be written.
/// The most `subscriptions/listen` streams of one connection accepted and not yet registered
/// that are remembered (a client asks for one or two).
const LISTENS_ACCEPTED: usize = 8;

const NOTIFY_BEFORE_RESULT: std::time::Duration = std::time::Duration::from_secs(2);

/// The single resource's listing entry.
fn windows_resource() -> Resource {
    Resource::new(WINDOWS_URI, "windows")
        .with_title("Application windows")
        .with_description(
            "Every window: topology, operableWindowIds and each window's summary and blocks. Subscribe for changes.",
        )
        .with_mime_type("application/json")
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
        self.shared.hub.agent_active();
        if self.session.get().is_none() {
            let id = self.shared.connections.add_session(context.peer.clone());
            let _ = self.session.set(id);
        }
        let profile = self.profile(Some(&request.client_info.name));
        let mut result = self.negotiate_initialize(&request)?;
        result.instructions = Some(self.shared.instructions_for(&profile));
        Ok(result)
    }

    async fn discover(&self, context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        let mut info = self.get_info();
        info.instructions = Some(self.shared.instructions_for(&self.profile_of(&context)));
        Ok(DiscoverResult::from_server_info(self.supported_protocol_versions().into_owned(), info))
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
            // A client's string, echoed clipped: it may be megabytes long.
            return Err(ErrorData::resource_not_found(
                format!("Unknown resource {}; the only one is {WINDOWS_URI}", clipped(&request.uri)),
                None,
            ));
        }
        self.shared.hub.agent_active();
        self.shared.hub.first_frame().await;
        self.shared.hub.look_for_read().await;
        let json = self.shared.hub.snapshot().json().to_owned();
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
        // Noted before rmcp acknowledges the stream: what it publishes before `listen` runs is
        // then told too.
        let mut pending = self.accepted.lock();
        if pending.len() == LISTENS_ACCEPTED {
            pending.pop_front();
        }
        pending.push_back(self.shared.connections.revisions_now());
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let since = self.accepted.lock().pop_front();
        let id = self.shared.connections.add_listener(context.sink().clone(), since);
        self.listeners.lock().push(id);
        context.cancelled().await;
        self.listeners.lock().retain(|l| *l != id);
        self.shared.connections.remove(id);
        Ok(())
    }

    /// An unknown method is answered "Method not found" naming it clipped: rmcp's default
    /// echoes the whole client-chosen name (a 1 MB method name became a 1 MB answer).
    async fn on_custom_request(
        &self,
        request: rmcp::model::CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CustomResult, ErrorData> {
        let method = clipped(&request.method);
        Err(ErrorData::new(rmcp::model::ErrorCode::METHOD_NOT_FOUND, format!("Method not found: {method}"), None))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.shared.hub.agent_active();
        self.shared.hub.first_frame().await;
        // As a read of the state: the first list after an agent arrives waits (bounded) for the
        // read view's first look, so that it holds the generic tools of the windows the app has
        // not described (a client that lists once would otherwise miss them).
        self.shared.hub.look_for_read().await;
        let app = self.shared.tools();
        let mut tools: Vec<Tool> = self.bridge_tools().chain(app.iter().cloned()).collect();
        // One list for every connection (MCP 2026-07-28: `tools/list` must not vary per
        // connection); clients that do not know the `_meta` keys ignore them.
        super::tool_search::mark_list_for_tool_search(&mut tools, app.len());
        Ok(ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.bridge_tools()
            .find(|t| t.name == name)
            .or_else(|| self.shared.tools().iter().find(|t| t.name == name).cloned())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.shared.hub.agent_active();
        // Counted until answered, so that a stop waits for it; refused once stopping.
        let Some(_under_way) = self.serving.begin() else {
            return Err(ErrorData::internal_error("The server is stopping; the call was not made", None));
        };
        #[cfg(feature = "http")]
        let left = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(super::http_layers::ClientLeft::of)
            .map(super::http_layers::ClientLeft::wait);
        #[cfg(not(feature = "http"))]
        let left = None::<std::future::Pending<()>>;
        let sees = self.profile_of(&context).sees;
        let name = request.name.clone();
        let call = self.call_or_read(request, sees);
        // An HTTP client that leaves ends the wait: dropping the call cancels it unless the UI
        // has taken it already (then it is applied; only the answer is lost).
        let answer = match left {
            Some(left) => tokio::select! {
                answer = call => answer,
                () = left => {
                    tracing::info!(tool = %clipped(&name), "the client left before the answer");
                    return Err(ErrorData::internal_error("The client left", None));
                }
            },
            None => call.await,
        };
        let (tool, outcome) = match answer {
            Answer::Read(read) => return Ok(read.into()),
            Answer::Called { tool, outcome } => (tool, outcome),
        };
        log_call(&name, &tool, &outcome);
        let accommodations = self.shared.policy.accommodations();
        // Whether or not the client's model will see new tools in its list, the result names
        // them with their parameters and the dispatcher that calls them.
        let specs = match &outcome {
            Ok(r) if accommodations && !r.new_tools.is_empty() => Some(self.shared.tool_specs(&r.new_tools)),
            _ => None,
        };
        self.notify_before_result().await;
        Ok(call_result(&outcome, sees, specs).into())
    }
}

/// What a tool call comes to, before its result is written.
enum Answer {
    /// A read of the state or a picture of a window, answered whole.
    Read(CallToolResult),
    /// The tool called (through a dispatcher, the one it named) and its outcome.
    Called { tool: String, outcome: Outcome },
}

/// One line per call: the tool, the dispatcher it came `via` if any, and how it ended. Names
/// are client strings: logged clipped.
fn log_call(name: &str, tool: &str, outcome: &Outcome) {
    let (tool, via) = (clipped(tool), (name != tool).then(|| clipped(name)));
    if let Err(e) = outcome {
        tracing::info!(tool = %tool, via = via.as_deref(), code = e.code.as_str(), "tool call failed");
    } else {
        tracing::info!(tool = %tool, via = via.as_deref(), "tool call done");
    }
}

impl BridgeHandler {
    /// A tool call up to its outcome: a read of the state is answered whole, anything else is
    /// the called tool's name and outcome.
    async fn call_or_read(&self, request: CallToolRequestParams, sees: ResultView) -> Answer {
        let accommodations = self.shared.policy.accommodations();
        let args = request.arguments.unwrap_or_default();
        let name = request.name.as_ref();
        if name == READ_WINDOWS.as_str() && !self.shared.policy.no_read_windows {
            tracing::debug!(tool = name, "state read");
            return Answer::Read(bridge_tools::read_windows(&self.shared, accommodations, sees, &args).await);
        }
        if name == VIEW_WINDOW.as_str() && !self.shared.policy.no_view_window {
            return Answer::Read(view_window::view_window(&self.shared, sees, &args).await);
        }
        let dispatcher = bridge_tools::dispatcher_class(name).filter(|_| accommodations);
        if let Some(class) = dispatcher {
            return match bridge_tools::dispatch(&self.shared, self.client, class, &args).await {
                Dispatch::ReadWindows(inner) => {
                    Answer::Read(bridge_tools::read_windows(&self.shared, accommodations, sees, &inner).await)
                }
                Dispatch::ViewWindow(inner) => Answer::Read(view_window::view_window(&self.shared, sees, &inner).await),
                Dispatch::Outcome(tool, outcome) => Answer::Called { tool, outcome: *outcome },
            };
        }
        self.shared.hub.first_frame().await;
        Answer::Called { tool: name.to_owned(), outcome: self.shared.hub.call(self.client, name, args).await }
    }
}
