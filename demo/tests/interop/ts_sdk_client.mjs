// The TypeScript MCP SDK v1 (@modelcontextprotocol/sdk 1.23.0, the version Gemini CLI pins) as a
// real client of the headless demo over streamable HTTP, behaving as Gemini CLI does: it sends
// Gemini's clientInfo name, reads app://windows, re-lists tools on tools/list_changed, and reads
// only the text content of results. Every call goes through client.callTool, whose output-schema
// validation (of error results too, in 1.23) is on: none may be reported as a schema violation.
//
// usage: node ts_sdk_client.mjs http://127.0.0.1:PORT/mcp      prints PASS typescript-sdk-v1

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const url = process.argv[2];
const assert = (ok, what) => {
  if (!ok) throw new Error(`assertion failed: ${what}`);
};

const client = new Client({ name: "gemini-cli-mcp-client", version: "0.56.0" }, { capabilities: {} });
let listChanged = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
  listChanged += 1;
});
await client.connect(new StreamableHTTPClientTransport(new URL(url)));

let tools = new Set();
const relist = async () => {
  tools = new Set((await client.listTools()).tools.map((t) => t.name));
};
await relist();
assert(tools.has("app__read_windows") && tools.has("orders__open_order"), [...tools].join(","));
assert(tools.has("app__call") && tools.has("app__call_destructive"), "every connection gets the dispatchers");

/** Calls a tool through the SDK and returns what Gemini's model reads: the text, parsed. */
const call = async (name, args) => {
  // Waits (bounded) for a list change when the tool is not listed yet, as Gemini re-lists.
  for (let i = 0; i < 100 && !tools.has(name); i++) {
    if (listChanged > 0) {
      listChanged = 0;
      await relist();
    } else {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  assert(tools.has(name), `${name} listed`);
  const r = await client.callTool({ name, arguments: args });
  assert(r.content.length === 1 && r.content[0].type === "text", `${name}: one text block`);
  const seen = JSON.parse(r.content[0].text);
  console.log(`${name} ${JSON.stringify(args)} -> ${r.isError ? seen.code : "ok"} (${r.content[0].text.length} bytes)`);
  return { error: r.isError === true, seen };
};
const ok = async (name, args) => {
  const r = await call(name, args);
  assert(!r.error, `${name} succeeded: ${JSON.stringify(r.seen)}`);
  return r.seen;
};
const state = async () => JSON.parse((await client.readResource({ uri: "app://windows" })).contents[0].text);
const win = (s, id) => s.windows.find((w) => w.id === id);
const field = (w, label) =>
  w.blocks.filter((b) => b.type === "fields").flatMap((b) => b.items).find((i) => i.label === label)?.value;

// A success, and an error of each kind through callTool.
const page = await ok("orders__load_orders", { status: "Draft", limit: 1 });
const order = page.result.rows[0][0];
let r = await call("orders__open_order", { order: "nope" });
assert(r.error && r.seen.code === "validation_failed" && r.seen.fields[0].field === "order", JSON.stringify(r.seen));
const opened = await ok("orders__open_order", { order });
const editor = opened.openedWindowIds[0];
let version = win(await state(), editor).version;
const edit = `${editor}__edit_field`;
let v = (await ok(edit, { field: "recipient", value: "Grace Hopper", expectedVersion: version })).version;
r = await call(edit, { field: "address", value: "stale", expectedVersion: version });
assert(r.error && r.seen.code === "stale_state" && r.seen.currentVersion === v, JSON.stringify(r.seen));
for (const [name, value] of [["address", "1 Navy Way"], ["currency", "EUR"]]) {
  v = (await ok(edit, { field: name, value, expectedVersion: v })).version;
}
v = (await ok(`${editor}__add_item`, { product: "Green tea", quantity: 2, unitPrice: 4.5, expectedVersion: v })).version;
const submitted = await ok(`${editor}__submit`, { expectedVersion: v });
const confirm = submitted.newTools.find((t) => t.endsWith("__confirm"));
// The editor's tools are still in the SDK's cache (with their output schemas): blocked_by_modal.
r = await client.callTool({ name: edit, arguments: { field: "address", value: "x" } });
const blocked = JSON.parse(r.content[0].text);
assert(r.isError && blocked.code === "blocked_by_modal" && blocked.blockingWindowId === submitted.openedWindowIds[0], JSON.stringify(blocked));
console.log(`${edit} (behind the dialog) -> ${blocked.code}`);
const confirmed = await ok(confirm, {});
const authorize = confirmed.newTools.find((t) => t.endsWith("__authorize"));
r = await call(authorize, { password: "0000" });
assert(r.error && r.seen.fields[0].field === "password", JSON.stringify(r.seen));
await ok(authorize, { password: "1234" });
const done = win(await state(), editor);
assert(field(done, "Status") === "Submitted", JSON.stringify(done));
await client.close();
console.log("PASS typescript-sdk-v1");
