//! rmcp's side: a `ServerHandler` whose listings come from agentbox's tool
//! and resource tables and whose calls and reads are queued to the writer
//! thread (`writer`), served over rmcp's stdio transport on a
//! current-thread tokio runtime.

use crate::writer::Job;
use agentbox::mcp::Limits;
use agentbox::mcp::protocol::{self, Features, RpcError};
use agentbox::mcp::{resources, tools};
use agentbox::tools::Resource;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorCode, InitializeResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use std::sync::mpsc::Sender;
use tokio::sync::oneshot;

/// `agentbox::mcp`'s instructions (a private const there).
const INSTRUCTIONS: &str = "agentbox memory. At the start of a task call mem_context with the \
user's request: it returns their preferences, profile facts and the past turns, notes and facts \
that match, as markdown to use as context. Use mem_search to recall something specific. Record \
the conversation with mem_save_turn (messages[] or role + content; flush: true at the end of a \
session), and durable facts about the user (preferences, identity, habits, decisions) with \
mem_save_fact. Resources: mem://profile and mem://search?q={query}&topK={topK}.";

/// Serves MCP on stdin/stdout until stdin closes; every call and read goes
/// to the writer through `jobs`.
pub fn serve_stdio(jobs: Sender<Job>, _limits: Limits) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        // rmcp's service loop times its drain at end of input.
        .enable_time()
        .build()
        .map_err(|e| format!("cannot start the tokio runtime: {e}"))?;
    runtime.block_on(async move {
        let server = MemoryServer::new(jobs);
        let running = server
            .serve(rmcp::transport::stdio_pipes())
            .await
            .map_err(|e| format!("handshake failed: {e}"))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| format!("the session ended with an error: {e}"))
    })
}

pub struct MemoryServer {
    jobs: Sender<Job>,
    info: ServerConfig,
    resources: Vec<&'static Resource>,
}

impl MemoryServer {
    pub fn new(jobs: Sender<Job>) -> MemoryServer {
        let info: InitializeResult = serde_json::from_value(json!({
            "protocolVersion": protocol::LATEST_VERSION,
            "capabilities": {
                "tools": {"listChanged": false},
                "resources": {"subscribe": false, "listChanged": false}
            },
            "serverInfo": {
                "name": agentbox::mcp::SERVER_NAME,
                "version": env!("CARGO_PKG_VERSION"),
                "title": "agentbox memory"
            },
            "instructions": INSTRUCTIONS
        }))
        .expect("a valid InitializeResult");
        MemoryServer {
            jobs,
            info,
            resources: agentbox::tools::installed().resources(),
        }
    }

    /// Queues a job and waits for the writer's answer (sent once its
    /// group's writes are durable).
    async fn ask(
        &self,
        job: impl FnOnce(oneshot::Sender<Result<Value, RpcError>>) -> Job,
    ) -> Result<Value, ErrorData> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(job(reply))
            .map_err(|_| ErrorData::internal_error("the writer has stopped", None))?;
        answer
            .await
            .map_err(|_| ErrorData::internal_error("the writer dropped the request", None))?
            .map_err(rpc_error)
    }
}

/// The version a request is served at, as agentbox's `Features`.
fn features(context: &RequestContext<RoleServer>) -> Features {
    let version = context.protocol_version();
    let known = protocol::supported_versions().into_iter().find(|v| {
        version
            .as_ref()
            .is_some_and(|version| version.as_str() == *v)
    });
    Features::new(known.unwrap_or(protocol::LATEST_VERSION))
}

fn rpc_error(error: RpcError) -> ErrorData {
    ErrorData::new(ErrorCode(error.code as i32), error.message, error.data)
}

/// One of agentbox's JSON results as rmcp's type.
fn typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value)
        .map_err(|e| ErrorData::internal_error(format!("result does not parse: {e}"), None))
}

impl ServerHandler for MemoryServer {
    fn get_info(&self) -> ServerConfig {
        self.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        typed(tools::list(features(&context)))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let features = features(&context);
        let name = request.name.into_owned();
        let args = request.arguments.unwrap_or_default();
        let result = self
            .ask(|reply| Job::Call {
                name,
                args,
                features,
                reply,
            })
            .await?;
        Ok(typed::<CallToolResult>(result)?.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        typed(resources::list(features(&context), &self.resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        typed(resources::templates(features(&context)))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let result = self.ask(|reply| Job::Read { uri, reply }).await?;
        Ok(typed::<ReadResourceResult>(result)?.into())
    }
}

/// `--http ADDR` (with `--features http`): rmcp's Streamable HTTP server,
/// stateless with JSON responses, on hyper; no token, no limits of our own
/// (it exists to weigh what the SDK's HTTP side costs).
#[cfg(feature = "http")]
pub fn serve_http(jobs: Sender<Job>, addr: &str) -> Result<(), String> {
    use hyper_util::rt::TokioIo;
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| format!("cannot start the tokio runtime: {e}"))?;
    runtime.block_on(async move {
        let mut config = StreamableHttpServerConfig::default();
        config.legacy_session_mode = false;
        config.json_response = true;
        let jobs = std::sync::Mutex::new(jobs);
        let service = StreamableHttpService::new(
            move || Ok(MemoryServer::new(jobs.lock().expect("jobs").clone())),
            std::sync::Arc::new(NeverSessionManager::default()),
            config,
        );
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        eprintln!("memory_mcp: serving http://{local}/mcp");
        loop {
            let (stream, _) = listener.accept().await.map_err(|e| e.to_string())?;
            let service = TowerToHyperService::new(service.clone());
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    })
}
