#!/usr/bin/env node
// Interop test: the official TypeScript MCP SDK (1.x) client against
// `memory_mcp --http`.
//
// Usage: node tests/ts/mcp_interop.mjs <url>
//
// Connects to a running `memory_mcp --http` at <url> through the SDK's
// StreamableHTTPClientTransport, sending `Authorization: Bearer
// $AGENTBOX_MCP_TOKEN` when that variable is set, and drives it the way a
// host does: the initialize handshake (the SDK 1.x speaks 2025-11-25), list
// tools, resources and templates, call all four tools (a save, then a search
// that finds it), read both resources and a search URI, the error paths (an
// unknown resource and an unknown tool as JSON-RPC errors, an empty query as
// a tool error). Then a second client must find what the first saved and,
// when a token is set, a client without it must be refused with 401.
// Exits 0 when everything holds, 1 naming the failed check otherwise, 3 when
// the SDK is not installed (tools/test-setup.sh runs npm ci in tests/ts).

let Client, StreamableHTTPClientTransport, StreamableHTTPError, McpError;
try {
  ({ Client } = await import('@modelcontextprotocol/sdk/client/index.js'));
  ({ StreamableHTTPClientTransport, StreamableHTTPError } = await import(
    '@modelcontextprotocol/sdk/client/streamableHttp.js'
  ));
  ({ McpError } = await import('@modelcontextprotocol/sdk/types.js'));
} catch (error) {
  console.error(`mcp_interop.mjs: the TypeScript MCP SDK is not importable: ${error.message}`);
  process.exit(3);
}

class CheckFailed extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

const show = (value) => JSON.stringify(value);

function textOf(result) {
  const content = result.content;
  check(content.length === 1 && content[0].type === 'text', `one text content item: ${show(result)}`);
  return content[0].text;
}

async function expectError(what, code, call) {
  let result;
  try {
    result = await call();
  } catch (error) {
    if (error instanceof StreamableHTTPError) {
      throw new CheckFailed(
        `${what}: JSON-RPC error ${code} expected, the HTTP request failed instead (status ${error.code}): ${error.message}`,
      );
    }
    check(error instanceof McpError, `${what}: an McpError expected, got ${error}`);
    check(error.code === code, `${what}: JSON-RPC error ${code} expected, got ${error.code}: ${error.message}`);
    return;
  }
  throw new CheckFailed(`${what}: a JSON-RPC error ${code} was expected, got a result: ${show(result)}`);
}

async function connect(url, token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'agentbox-interop-ts', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function save(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const status = JSON.parse(textOf(result));
  if (result.structuredContent !== undefined) {
    check(show(result.structuredContent) === show(status), `${name}: structuredContent matches the text: ${show(result)}`);
  }
  return { status, isError: result.isError === true };
}

async function fullSession(url, token) {
  const { client, transport } = await connect(url, token);
  try {
    check(client.getServerVersion()?.name === 'agentbox-memory', `serverInfo: ${show(client.getServerVersion())}`);
    check(transport.protocolVersion === '2025-11-25', `negotiated ${transport.protocolVersion}, not 2025-11-25`);
    check(transport.sessionId === undefined, `a stateless server issues no session id: ${transport.sessionId}`);
    const caps = client.getServerCapabilities();
    check(caps?.tools && caps?.resources, `capabilities: ${show(caps)}`);
    check((client.getInstructions() ?? '').includes('mem_context'), `instructions: ${client.getInstructions()}`);
    await client.ping();

    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    check(show(names) === show(['mem_context', 'mem_search', 'mem_save_turn', 'mem_save_fact']), `tools: ${names}`);
    for (const t of tools) {
      check(t.inputSchema.type === 'object', `${t.name} inputSchema`);
      check(t.annotations?.openWorldHint === false, `${t.name} is not open-world`);
    }
    const { resources } = await client.listResources();
    check(
      show(resources.map((r) => r.uri)) === show(['mem://profile', 'mem://persona']),
      `resources: ${show(resources)}`,
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    check(
      show(resourceTemplates.map((t) => t.uriTemplate)) === show(['mem://search?q={query}&topK={topK}']),
      `templates: ${show(resourceTemplates)}`,
    );

    // the write tools: a turn, its retry, a fact
    const messages = [
      { role: 'user', content: 'How do I format TypeScript code here?' },
      { role: 'assistant', content: 'Run prettier --write before committing.' },
    ];
    let { status, isError } = await save(client, 'mem_save_turn', { messages, sessionKey: 'interop-ts' });
    check(!isError && status.status === 'saved' && status.messageCount === 2, `save_turn: ${show(status)}`);
    ({ status } = await save(client, 'mem_save_turn', { messages, sessionKey: 'interop-ts' }));
    check(status.status === 'duplicate' && status.saved === false, `duplicate turn: ${show(status)}`);
    ({ status, isError } = await save(client, 'mem_save_fact', { fact: 'Works on the ledger service.' }));
    check(!isError && status.status === 'saved' && status.profileUpdated === true, `save_fact: ${show(status)}`);

    // the read tools find what was saved
    let result = await client.callTool({ name: 'mem_search', arguments: { query: 'how is TypeScript formatted?', topK: 3 } });
    const found = textOf(result);
    check(!result.isError && /prettier|format TypeScript/.test(found), `mem_search finds the turn: ${show(result)}`);
    result = await client.callTool({ name: 'mem_context', arguments: { query: 'prettier' } });
    const context = textOf(result);
    check(context.includes('## Profile') && context.includes('ledger service'), `mem_context: ${context}`);
    check(context.includes('prettier'), `mem_context matches: ${context}`);
    result = await client.callTool({ name: 'mem_search', arguments: { query: '' } });
    check(result.isError === true, `an empty mem_search query is a tool error: ${show(result)}`);

    // the resources
    let read = await client.readResource({ uri: 'mem://profile' });
    check(read.contents[0].mimeType === 'text/markdown', `profile mimeType: ${show(read)}`);
    check(read.contents[0].text.includes('ledger service'), `profile: ${show(read)}`);
    read = await client.readResource({ uri: 'mem://persona' });
    check(read.contents[0].text.toLowerCase().includes('persona'), `persona: ${show(read)}`);
    read = await client.readResource({ uri: 'mem://search?q=prettier&topK=2' });
    check(read.contents[0].text.includes('prettier'), `search resource: ${show(read)}`);

    // errors
    await expectError('unknown resource', -32002, () => client.readResource({ uri: 'mem://nope' }));
    await expectError('unknown tool', -32602, () => client.callTool({ name: 'mem_nope', arguments: {} }));
    await client.ping();
  } finally {
    await client.close();
  }
}

async function secondSession(url, token) {
  const { client } = await connect(url, token);
  try {
    const result = await client.callTool({ name: 'mem_search', arguments: { query: 'ledger' } });
    check(textOf(result).includes('ledger'), `a second client sees the same home: ${show(result)}`);
  } finally {
    await client.close();
  }
}

async function refusedWithoutToken(url) {
  let connected;
  try {
    connected = await connect(url, null);
  } catch (error) {
    check(error instanceof StreamableHTTPError && error.code === 401, `refused with 401: ${error}`);
    return;
  }
  await connected.client.close();
  throw new CheckFailed('a client without the bearer token was let in');
}

async function main() {
  if (process.argv.length !== 3) {
    console.error('usage: node tests/ts/mcp_interop.mjs <url>');
    process.exit(2);
  }
  const url = process.argv[2];
  const token = process.env.AGENTBOX_MCP_TOKEN || null;
  try {
    await fullSession(url, token);
    await secondSession(url, token);
    if (token) await refusedWithoutToken(url);
  } catch (error) {
    const kind = error instanceof CheckFailed ? '' : `${error.name}: `;
    console.error(`mcp_interop.mjs: FAIL: ${kind}${error.message}`);
    process.exit(1);
  }
  console.log('mcp_interop.mjs: ok (2025-11-25, http)');
}

await main();
