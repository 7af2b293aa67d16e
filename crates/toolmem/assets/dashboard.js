// The toolmem dashboard: plain JavaScript, no framework, no build step. Every datum comes from
// the server's own JSON-RPC methods on /rpc; the page adds no API. Text from the store is only
// ever set as text (never as HTML): rules can hold words pasted from anywhere.
"use strict";

(() => {
  const SECRET = document.querySelector('meta[name="toolmem-dashboard-secret"]').content;
  const PAGE_SIZE = 50;
  const HISTORY_PAGE = 50;
  const POLL_MS = 2000;
  // The overview reads the recent history of this many tools (a batch holds at most 1000).
  const VERDICT_TOOLS = 100;
  const TOKEN_KEY = "toolmem.token";
  const PRIORITIES = ["critical", "high", "normal"];

  const view = document.getElementById("view");
  const statusBox = document.getElementById("status");
  const errorBox = document.getElementById("error");
  const liveState = document.getElementById("live-state");
  const tokenForm = document.getElementById("token-form");

  // ---- RPC -------------------------------------------------------------------------------

  class RpcError extends Error {
    constructor(message, code, data) {
      super(message);
      this.code = code;
      this.data = data;
    }
  }

  let nextId = 1;

  async function post(body) {
    const headers = { "content-type": "application/json", "x-toolmem-dashboard": SECRET };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.authorization = "Bearer " + token;
    const response = await fetch("/rpc", {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
    if (response.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      tokenForm.hidden = false;
      document.getElementById("token-input").focus();
      throw new RpcError("the server needs its bearer token", 401);
    }
    if (!response.ok) {
      const text = (await response.text()).trim();
      throw new RpcError(text || "HTTP " + response.status, response.status);
    }
    return response.status === 204 ? null : response.json();
  }

  async function rpc(method, params) {
    const reply = await post({ jsonrpc: "2.0", id: nextId++, method, params });
    if (reply.error) throw new RpcError(reply.error.message, reply.error.code, reply.error.data);
    return reply.result;
  }

  // Several calls in one body; each answer is its result or an RpcError.
  async function batch(calls) {
    if (calls.length === 0) return [];
    const first = nextId;
    nextId += calls.length;
    const replies = await post(
      calls.map(([method, params], index) => ({ jsonrpc: "2.0", id: first + index, method, params })),
    );
    const byId = new Map((Array.isArray(replies) ? replies : [replies]).map((reply) => [reply.id, reply]));
    return calls.map((_, index) => {
      const reply = byId.get(first + index);
      if (!reply) return new RpcError("no reply", 0);
      return reply.error ? new RpcError(reply.error.message, reply.error.code, reply.error.data) : reply.result;
    });
  }

  // ---- Small DOM helpers -----------------------------------------------------------------

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === false || value === null || value === undefined) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function say(message) {
    statusBox.textContent = message;
  }

  function fail(error) {
    errorBox.textContent = error ? "Error: " + (error.message || String(error)) : "";
  }

  function when(timestamp) {
    if (!timestamp) return "";
    const date = new Date(timestamp);
    return isNaN(date) ? timestamp : date.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
  }

  function timeCell(timestamp) {
    return el("td", {}, el("time", { datetime: timestamp || "" }, when(timestamp)));
  }

  function toolHref(tool) {
    return "#/tool/" + encodeURIComponent(tool);
  }

  function badge(priority) {
    return el("span", { class: "badge " + priority }, priority);
  }

  // ---- Rules in words ----------------------------------------------------------------------

  function matcherWords(matchers) {
    return (matchers || []).map((matcher) => `${matcher.kind} “${matcher.value}”`).join(", ");
  }

  function constraintWords(constraint) {
    if (!constraint) return "none: advice for the agent, never a block";
    if (!Array.isArray(constraint.matchers)) return JSON.stringify(constraint);
    const verb = constraint.polarity === "require" ? "requires " : "forbids ";
    let words = verb + matcherWords(constraint.matchers);
    if (Array.isArray(constraint.when) && constraint.when.length) {
      words += " when the call has " + matcherWords(constraint.when);
    }
    if (constraint.explicit) words += " (given, not derived)";
    return words;
  }

  function trustWords(rule) {
    if (rule.proposed && (rule.tags || []).includes("from-material")) {
      return "untrusted: proposed from pasted material";
    }
    if (rule.proposed) return "awaiting confirmation";
    switch (rule.source) {
      case "user_explicit":
        return "the user's own words";
      case "post_turn":
        return "observed from tool results";
      default:
        return "set by a program";
    }
  }

  function stateWords(rule) {
    if (rule.revoked_at) return "revoked " + when(rule.revoked_at);
    if (rule.proposed) return "proposed";
    if (rule.expires_at) return "expires " + when(rule.expires_at);
    return "active";
  }

  function originWords(origin) {
    if (!origin) return "";
    const parts = [origin.kind];
    if (origin.method) parts.push(origin.method);
    if (origin.session_id) parts.push("session " + origin.session_id);
    if (origin.turn !== undefined && origin.turn !== null) parts.push("turn " + origin.turn);
    return parts.join(", ");
  }

  function changeWords(entry) {
    const before = entry.before;
    const after = entry.after;
    if (entry.detail !== undefined && entry.detail !== null) {
      return typeof entry.detail === "string" ? entry.detail : JSON.stringify(entry.detail);
    }
    if (!before && after) return `created [${after.priority}] ${after.rule}`;
    if (before && !after) return `deleted [${before.priority}] ${before.rule}`;
    if (!before || !after) return "";
    const changes = [];
    if (before.priority !== after.priority) changes.push(`priority ${before.priority} → ${after.priority}`);
    if (before.rule !== after.rule) changes.push(`text “${before.rule}” → “${after.rule}”`);
    if (!!before.revoked_at !== !!after.revoked_at) changes.push(after.revoked_at ? "revoked" : "restored");
    if (!!before.proposed !== !!after.proposed) changes.push(after.proposed ? "proposed" : "confirmed");
    return changes.join("; ") || after.rule;
  }

  // ---- Which tools there are ----------------------------------------------------------------
  // memory.tool_list counts every tool's rules in one store read; its names also fill the
  // other views' pickers.

  let toolNames = [];

  function noteTools(tools) {
    toolNames = tools.map((tool) => tool.tool_name);
    return tools;
  }

  async function listTools() {
    return noteTools(await rpc("memory.tool_list"));
  }

  // The answers of a batch, or the first error among them.
  function all(answers) {
    const failed = answers.find((answer) => answer instanceof RpcError);
    if (failed) throw failed;
    return answers;
  }

  function normaliseTool(name) {
    return name.trim().toLowerCase();
  }

  // ---- Views ---------------------------------------------------------------------------
  // Each view builds its forms once (`setup`) and fills its data regions on `refresh`, so a
  // live update never throws away what a person is typing.

  let current = null;

  const views = {
    overview: { setup: setupOverview },
    tool: { setup: setupTool },
    history: { setup: setupHistory },
    try: { setup: setupTry },
    export: { setup: setupExport },
  };

  function route() {
    const [, name = "", argument = ""] = location.hash.split("/");
    const tool = argument ? decodeURIComponent(argument) : "";
    return { name: views[name] ? name : "overview", tool };
  }

  async function show() {
    const { name, tool } = route();
    fail(null);
    for (const link of document.querySelectorAll("nav a")) {
      if (link.dataset.view === name) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    view.replaceChildren();
    current = views[name].setup(tool) || null;
    if (current && current.refresh) await refresh();
    const heading = view.querySelector("h2");
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
    // For measuring load time (docs/dashboard.md): the view is drawn with its data.
    performance.mark("toolmem-view-ready");
  }

  // Refreshes run one after another: a change made on the page waits for a poll's refresh in
  // flight and then shows, instead of being skipped.
  let refreshing = false;
  let queue = Promise.resolve();

  function refresh() {
    const target = current;
    const run = queue.then(async () => {
      if (!target || target !== current || !target.refresh) return;
      refreshing = true;
      try {
        const mark = target.fingerprint ? await target.fingerprint() : null;
        await target.refresh();
        target.mark = mark;
        fail(null);
      } catch (error) {
        fail(error);
      } finally {
        refreshing = false;
      }
    });
    queue = run.catch(() => {});
    return run;
  }

  // A change anywhere (an agent, the CLI, another server on the database) writes a history
  // line: the newest line of each shown tool, plus the pinned block, is the whole fingerprint.
  async function historyMark(tools) {
    const answers = await batch(tools.map((tool) => ["memory.tool_rule_history", { tool_name: tool, limit: 1 }]));
    return JSON.stringify(
      answers.map((answer) => (answer instanceof RpcError ? answer.message : answer.map((entry) => entry.seq))),
    );
  }

  function overviewData() {
    return batch([["memory.tool_rules_for_prompt", { tools: [] }], ["memory.tool_list"]]).then(all);
  }

  // What the fingerprint just read; a refresh always follows its own fingerprint, so it takes
  // this instead of asking for the same (possibly large) pinned block again.
  let overviewRead = null;

  async function overviewMark() {
    overviewRead = await overviewData();
    const [block, tools] = overviewRead;
    noteTools(tools);
    return block.rendered + "\u0000" + JSON.stringify(tools) + "\u0000" + (await historyMark(toolNames.slice(0, VERDICT_TOOLS)));
  }

  async function poll() {
    const target = current;
    if (document.hidden || !target || !target.fingerprint || refreshing) return;
    const started = performance.now();
    const changes = ownChanges;
    try {
      const mark = await target.fingerprint();
      // A change made on this page meanwhile is shown by its own refresh, not announced here.
      if (changes !== ownChanges) return;
      const took = Math.round(performance.now() - started);
      liveState.textContent = `Live updates: checked ${new Date().toLocaleTimeString()} (${took} ms)`;
      if (target === current && target.mark !== undefined && mark !== target.mark && !refreshing) {
        await refresh();
        say("Updated: something changed the rules outside this page.");
      }
    } catch (error) {
      liveState.textContent = "Live updates: " + error.message;
    }
  }

  // -- Overview

  function setupOverview() {
    const tools = el("div", { class: "region" });
    const prompt = el("div", { class: "region" });
    const verdicts = el("div", { class: "region" });
    const open = el("form", { class: "inline", onsubmit: (event) => {
      event.preventDefault();
      const tool = normaliseTool(open.elements.tool.value);
      if (tool) location.hash = toolHref(tool);
    } },
      el("label", { for: "open-tool" }, "Open a tool by name"),
      el("input", { id: "open-tool", name: "tool", required: true, autocomplete: "off" }),
      el("button", { type: "submit" }, "Open"));
    view.append(
      el("h2", {}, "Overview"),
      el("section", { "aria-labelledby": "tools-heading" },
        el("h3", { id: "tools-heading" }, "Tools"),
        open, tools),
      el("section", { "aria-labelledby": "prompt-heading" },
        el("h3", { id: "prompt-heading" }, "What the agent sees at session start"), prompt),
      el("section", { "aria-labelledby": "verdicts-heading" },
        el("h3", { id: "verdicts-heading" }, "Recent guard verdicts"), verdicts),
    );
    return {
      fingerprint: overviewMark,
      refresh: async () => {
        const [block, counts] = overviewRead || (await overviewData());
        overviewRead = null;
        noteTools(counts);
        const scanned = toolNames.slice(0, VERDICT_TOOLS);
        const histories = await batch(scanned.map((tool) => ["memory.tool_rule_history", { tool_name: tool, limit: 50 }]));
        tools.replaceChildren(toolTable(counts));
        prompt.replaceChildren(...promptBlock(block));
        verdicts.replaceChildren(verdictTable(histories, toolNames.length - scanned.length));
      },
    };
  }

  function toolTable(counts) {
    if (counts.length === 0) return el("p", {}, "No tools yet. Add a rule through the RPC, the CLI, or open a tool above.");
    const columns = ["critical", "high", "normal", "proposed", "revoked"];
    const rows = counts.map((tool) => el("tr", {},
      el("th", { scope: "row" }, el("a", { href: toolHref(tool.tool_name) }, tool.tool_name)),
      ...columns.map((column) => el("td", { class: "number" }, tool[column])),
      el("td", { class: "number" }, columns.reduce((sum, column) => sum + tool[column], 0))));
    return el("table", {},
      el("caption", {}, "Rules per tool, by priority"),
      el("thead", {}, el("tr", {}, ...["Tool", "Critical", "High", "Normal", "Proposed", "Revoked", "Total"].map((name) => el("th", { scope: "col" }, name)))),
      el("tbody", {}, rows));
  }

  function promptBlock(block) {
    const bytes = new TextEncoder().encode(block.rendered).length;
    const facts = [
      el("p", {}, `${bytes} bytes, ${block.rules.length} pinned rules; the server's budget is ${block.budget_bytes} bytes.`),
    ];
    if (block.left_out && block.left_out.length) {
      facts.push(el("p", { class: "warning" }, `Over the budget: ${block.left_out.length} high rules left out of the block: `,
        block.left_out.map((rule) => `${rule.tool_name}/${rule.id}`).join(", ")));
    }
    if (block.critical_over_budget) {
      facts.push(el("p", { class: "warning" }, "The critical rules alone exceed the budget; they are all rendered anyway."));
    }
    if (block.unreadable && block.unreadable.length) {
      facts.push(el("p", { class: "warning" }, `${block.unreadable.length} stored rules cannot be read by this version; run toolmem doctor.`));
    }
    facts.push(block.rendered
      ? el("pre", { class: "prompt", tabindex: 0, "aria-label": "The pinned block, exactly" }, block.rendered)
      : el("p", {}, "The block is empty: no high or critical rules."));
    return facts;
  }

  function verdictTable(histories, unscanned) {
    const entries = histories
      .filter((history) => Array.isArray(history))
      .flat()
      .filter((entry) => entry.action === "deny" || entry.action === "ask_confirm")
      .sort((a, b) => b.seq - a.seq)
      .slice(0, 20);
    const scope = unscanned > 0 ? ` of the first ${VERDICT_TOOLS} tools (${unscanned} more not read)` : "";
    if (entries.length === 0) return el("p", {}, `No deny or confirm verdicts in the recent history${scope}.`);
    return el("table", {},
      el("caption", {}, `The latest deny and confirm verdicts (from each tool's history${scope})`),
      el("thead", {}, el("tr", {}, ...["When", "Tool", "Verdict", "Rule", "Call"].map((name) => el("th", { scope: "col" }, name)))),
      el("tbody", {}, entries.map((entry) => el("tr", {},
        timeCell(entry.at),
        el("td", {}, el("a", { href: toolHref(entry.tool_name) }, entry.tool_name)),
        el("td", {}, el("span", { class: "verdict " + entry.action }, entry.action === "deny" ? "deny" : "confirm")),
        el("td", {}, entry.rule_id, entry.after ? " — " + entry.after.rule : entry.before ? " — " + entry.before.rule : ""),
        el("td", {}, changeWords(entry))))));
  }

  // -- A tool's page

  function setupTool(tool) {
    tool = normaliseTool(tool);
    if (!tool) {
      location.hash = "#/";
      return null;
    }
    // The server sends one page at a time (memory.tool_rule_list with limit), so a tool of
    // 10,000 rules costs what a tool of 50 does; the filter runs on the server too.
    const state = { page: 0, filter: "", revoked: true, rules: [], total: 0, waiting: [] };
    const proposed = el("div", { class: "region" });
    const table = el("div", { class: "region" });
    const pager = el("nav", { class: "pager", "aria-label": "Rule pages" });
    const add = el("form", { id: "add-rule", class: "add", onsubmit: async (event) => {
      event.preventDefault();
      const tags = add.elements.tags.value.split(",").map((tag) => tag.trim()).filter(Boolean);
      await act(`Added a rule to ${tool}.`, () => rpc("memory.tool_rule_put", {
        tool_name: tool,
        rule: add.elements.rule.value,
        priority: add.elements.priority.value,
        source: "user_explicit",
        tags,
      }));
      add.reset();
    } },
      el("div", { class: "field wide" }, el("label", { for: "new-rule" }, "Rule text"),
        el("textarea", { id: "new-rule", name: "rule", rows: 1, required: true, maxlength: 4096 })),
      el("div", { class: "field" }, el("label", { for: "new-priority" }, "Priority"),
        el("select", { id: "new-priority", name: "priority" }, PRIORITIES.map((priority) => el("option", { value: priority, selected: priority === "critical" }, priority)))),
      el("div", { class: "field" }, el("label", { for: "new-tags" }, "Tags (comma-separated)"),
        el("input", { id: "new-tags", name: "tags", autocomplete: "off" })),
      el("button", { type: "submit" }, "Add rule"));
    let typing = null;
    const filter = el("input", { id: "rule-filter", type: "search", autocomplete: "off", oninput: () => {
      // One request when typing pauses, not one per key.
      clearTimeout(typing);
      typing = setTimeout(() => {
        state.filter = filter.value;
        state.page = 0;
        refresh();
      }, 250);
    } });
    const showRevoked = el("input", { id: "show-revoked", type: "checkbox", checked: true, onchange: () => {
      state.revoked = showRevoked.checked;
      state.page = 0;
      refresh();
    } });

    function turn(by) {
      state.page += by;
      refresh();
    }

    async function load() {
      const page = { tool_name: tool, include_revoked: state.revoked, limit: PAGE_SIZE, offset: state.page * PAGE_SIZE };
      if (state.filter) page.filter = state.filter;
      const [rules, waiting] = all(await batch([
        ["memory.tool_rule_list", page],
        ["memory.tool_rule_list", { tool_name: tool, limit: PAGE_SIZE, proposed: true }],
      ]));
      const pages = Math.max(1, Math.ceil(rules.total / PAGE_SIZE));
      if (state.page >= pages) {
        // Rules went away under this page: show the last page there is.
        state.page = pages - 1;
        return load();
      }
      state.rules = rules.rules;
      state.total = rules.total;
      state.waiting = waiting;
      draw(pages);
    }

    function draw(pages) {
      table.replaceChildren(ruleTable(tool, state.rules, state.total));
      pager.replaceChildren(
        el("button", { type: "button", disabled: state.page === 0, onclick: () => turn(-1) }, "Previous page"),
        el("span", {}, ` Page ${state.page + 1} of ${pages} (${state.total} rules) `),
        el("button", { type: "button", disabled: state.page >= pages - 1, onclick: () => turn(1) }, "Next page"));
      const waiting = state.waiting;
      const more = waiting.total > waiting.rules.length ? ` The first ${waiting.rules.length} of ${waiting.total} are shown.` : "";
      proposed.replaceChildren(waiting.total
        ? el("div", {}, proposalList(tool, waiting.rules), more ? el("p", { class: "note" }, more) : null)
        : el("p", {}, "No proposed rules wait for confirmation."));
    }

    view.append(
      el("h2", {}, "Tool ", el("code", {}, tool)),
      el("p", {}, el("a", { href: "#/history/" + encodeURIComponent(tool) }, "History"), " · ",
        el("a", { href: "#/try/" + encodeURIComponent(tool) }, "Try a call")),
      el("section", { "aria-labelledby": "proposed-heading" }, el("h3", { id: "proposed-heading" }, "Proposed rules"),
        el("p", { class: "note" }, "Captured from text that was not the user's own words; enforced only once a person confirms them."), proposed),
      el("section", { "aria-labelledby": "add-heading" }, el("h3", { id: "add-heading" }, "Add a rule"), add),
      el("section", { "aria-labelledby": "rules-heading" }, el("h3", { id: "rules-heading" }, "Rules"),
        el("div", { class: "inline" }, el("label", { for: "rule-filter" }, "Filter by text, id or tag"), filter,
          showRevoked, el("label", { for: "show-revoked" }, "Show revoked rules"), pager),
        table),
    );
    return {
      fingerprint: () => historyMark([tool]),
      refresh: load,
    };
  }

  function proposalList(tool, rules) {
    return el("ul", { class: "proposals" }, rules.map((rule) => el("li", {},
      badge(rule.priority), " ", rule.rule, " ",
      el("span", { class: "note" }, `(${trustWords(rule)}; tags: ${(rule.tags || []).join(", ") || "none"})`), " ",
      el("button", { type: "button", onclick: () => act(`Confirmed ${rule.id}.`, () => rpc("memory.tool_rule_confirm", { tool_name: tool, id: rule.id })) }, "Confirm"),
      " ",
      el("button", { type: "button", onclick: () => act(`Rejected ${rule.id}: revoked, kept in history.`, () => rpc("memory.tool_rule_revoke", { tool_name: tool, id: rule.id })) }, "Reject"))));
  }

  function ruleTable(tool, rules, total) {
    if (total === 0) return el("p", {}, "No rules match.");
    return el("table", { class: "rules" },
      el("caption", {}, `Rules of ${tool}`),
      el("thead", {}, el("tr", {}, ...["Priority", "Rule", "Source and trust", "Tags", "Constraint the guard enforces", "Created", "Updated", "State", "Actions"].map((name) => el("th", { scope: "col" }, name)))),
      el("tbody", {}, rules.map((rule) => ruleRow(tool, rule))));
  }

  function ruleRow(tool, rule) {
    const label = `Priority of rule ${rule.id}`;
    const priority = el("select", { "aria-label": label, onchange: () => act(`Changed the priority of ${rule.id} to ${priority.value}.`,
      () => rpc("memory.tool_rule_put", { tool_name: tool, id: rule.id, rule: rule.rule, priority: priority.value })) },
      PRIORITIES.map((value) => el("option", { value, selected: value === rule.priority }, value)));
    const lifecycle = rule.revoked_at
      ? el("button", { type: "button", "aria-label": `Restore rule ${rule.id}`, onclick: () => act(`Restored ${rule.id}.`, () => rpc("memory.tool_rule_restore", { tool_name: tool, id: rule.id })) }, "Restore")
      : el("button", { type: "button", "aria-label": `Revoke rule ${rule.id}`, onclick: () => act(`Revoked ${rule.id}.`, () => rpc("memory.tool_rule_revoke", { tool_name: tool, id: rule.id })) }, "Revoke");
    const remove = el("button", { type: "button", class: "danger", "aria-label": `Delete rule ${rule.id}`, onclick: () => {
      if (window.confirm(`Delete rule ${rule.id} for good? Its history stays.`)) {
        act(`Deleted ${rule.id}.`, () => rpc("memory.tool_rule_delete", { tool_name: tool, id: rule.id }));
      }
    } }, "Delete");
    return el("tr", { class: rule.revoked_at ? "revoked" : "", "data-rule-id": rule.id },
      el("td", {}, priority),
      el("td", {}, el("span", { class: "rule-text" }, rule.rule), el("br"), el("small", {}, "id ", el("code", {}, rule.id))),
      el("td", {}, rule.source, el("br"), el("small", {}, trustWords(rule))),
      el("td", {}, (rule.tags || []).join(", ")),
      el("td", {}, constraintWords(rule.constraint && { ...rule.constraint, explicit: rule.constraint_explicit })),
      timeCell(rule.created_at),
      timeCell(rule.updated_at),
      el("td", {}, stateWords(rule)),
      el("td", { class: "actions" }, lifecycle, " ", remove));
  }

  // Changes made on this page, so the poller can tell them from changes made elsewhere.
  let ownChanges = 0;

  // Runs a change, says what it did, and shows the new state.
  async function act(done, change) {
    ownChanges += 1;
    try {
      await change();
      say(done);
      fail(null);
      await refresh();
    } catch (error) {
      fail(error);
    } finally {
      // Counted at both ends: a poll that overlapped any part of the change sees it moved.
      ownChanges += 1;
    }
  }

  // -- History

  function setupHistory(tool) {
    tool = normaliseTool(tool);
    const list = el("div", { class: "region" });
    const picker = el("form", { class: "inline", onsubmit: (event) => {
      event.preventDefault();
      const chosen = normaliseTool(picker.elements.tool.value);
      if (chosen) location.hash = "#/history/" + encodeURIComponent(chosen);
    } },
      el("label", { for: "history-tool" }, "Tool"),
      el("input", { id: "history-tool", name: "tool", list: "history-tools", value: tool, required: true, autocomplete: "off" }),
      el("datalist", { id: "history-tools" }, toolNames.map((name) => el("option", { value: name }))),
      el("button", { type: "submit" }, "Show history"));
    view.append(el("h2", {}, "History"),
      el("p", { class: "note" }, "Every change of a tool's rules and every deny or confirm of the guard, newest first, with who asked."),
      picker, list);
    if (!tool) {
      list.append(el("p", {}, "Pick a tool to see its history."));
      return null;
    }
    let pages = [null];
    return {
      fingerprint: () => historyMark([tool]),
      refresh: async () => {
        const before = pages[pages.length - 1];
        const params = { tool_name: tool, limit: HISTORY_PAGE };
        if (before !== null) params.before = before;
        const entries = await rpc("memory.tool_rule_history", params);
        const older = entries.length === HISTORY_PAGE ? entries[entries.length - 1].seq : null;
        list.replaceChildren(
          entries.length === 0 ? el("p", {}, "No history for this tool.") : el("table", {},
            el("caption", {}, `History of ${tool}`),
            el("thead", {}, el("tr", {}, ...["Seq", "When", "Action", "Rule", "Who asked", "What changed"].map((name) => el("th", { scope: "col" }, name)))),
            el("tbody", {}, entries.map((entry) => el("tr", {},
              el("td", { class: "number" }, entry.seq), timeCell(entry.at), el("td", {}, entry.action),
              el("td", {}, el("code", {}, entry.rule_id)), el("td", {}, originWords(entry.origin)), el("td", {}, changeWords(entry)))))),
          el("nav", { class: "pager", "aria-label": "History pages" },
            el("button", { type: "button", disabled: pages.length === 1, onclick: () => { pages.pop(); refresh(); } }, "Newer"),
            " ",
            el("button", { type: "button", disabled: older === null, onclick: () => { pages.push(older); refresh(); } }, "Older")));
      },
    };
  }

  // -- Try a call

  function setupTry(tool) {
    tool = normaliseTool(tool);
    const result = el("div", { class: "region", "aria-live": "polite" });
    const form = el("form", { id: "try-form", class: "stack", onsubmit: async (event) => {
      event.preventDefault();
      let args;
      try {
        args = JSON.parse(form.elements.arguments.value || "{}");
      } catch (error) {
        result.replaceChildren(el("p", { class: "warning" }, "The arguments are not JSON: " + error.message));
        return;
      }
      try {
        const verdict = await rpc("memory.tool_call_check", { tool_name: form.elements.tool.value, arguments: args });
        result.replaceChildren(verdictView(verdict));
        fail(null);
      } catch (error) {
        fail(error);
      }
    } },
      el("label", { for: "try-tool" }, "Tool"),
      el("input", { id: "try-tool", name: "tool", list: "try-tools", value: tool, required: true, autocomplete: "off" }),
      el("datalist", { id: "try-tools" }, toolNames.map((name) => el("option", { value: name }))),
      el("label", { for: "try-arguments" }, "Arguments (JSON)"),
      el("textarea", { id: "try-arguments", name: "arguments", rows: 6, spellcheck: "false" }, '{"to": "sarah@example.com"}'),
      el("button", { type: "submit" }, "Check the call"));
    view.append(el("h2", {}, "Try a call"),
      el("p", { class: "note" }, "Asks the guard what it would answer; nothing runs. A deny or confirm is written to the tool's history, as for any check."),
      form, result);
    return null;
  }

  function verdictView(verdict) {
    return el("div", { class: "verdict-box " + verdict.decision },
      el("p", {}, el("strong", { class: "verdict " + verdict.decision }, verdict.decision), " ", el("span", { class: "reason" }, verdict.reason)),
      verdict.rules.length ? el("div", {}, el("h3", {}, "Rules that decided it"), el("ul", {}, verdict.rules.map((rule) =>
        el("li", {}, badge(rule.priority), " ", rule.rule, " — ", constraintWords(rule.constraint))))) : null,
      verdict.advice.length ? el("div", {}, el("h3", {}, "Advice (never a block)"), el("ul", {}, verdict.advice.map((rule) =>
        el("li", {}, badge(rule.priority), " ", rule.rule)))) : null);
  }

  // -- Import and export

  function setupExport() {
    const exportRegion = el("div", { class: "region" });
    const report = el("div", { class: "region", "aria-live": "polite" });
    const importForm = el("form", { id: "import-form", class: "stack", onsubmit: async (event) => {
      event.preventDefault();
      const file = importForm.elements.file.files[0];
      const lines = file ? await file.text() : importForm.elements.text.value;
      if (!lines.trim()) {
        report.replaceChildren(el("p", { class: "warning" }, "Choose a file or paste JSON lines first."));
        return;
      }
      await act("Import finished; its report is below.", async () => {
        const answer = await rpc("memory.tool_rules_import", {
          lines,
          dry_run: importForm.elements.dry.checked,
          allow_weaken: importForm.elements.weaken.checked,
        });
        report.replaceChildren(...importReport(answer));
      });
    } },
      el("label", { for: "import-file" }, "A JSON lines file (toolmem's export, or openhuman's)"),
      el("input", { id: "import-file", name: "file", type: "file", accept: ".jsonl,.ndjson,.json,.txt,application/x-ndjson,application/json,text/plain" }),
      el("label", { for: "import-text" }, "or paste the lines here"),
      el("textarea", { id: "import-text", name: "text", rows: 4, spellcheck: "false" }),
      el("div", {}, el("input", { id: "import-dry", name: "dry", type: "checkbox" }),
        el("label", { for: "import-dry" }, "Dry run: report what each line would do, write nothing")),
      el("div", {}, el("input", { id: "import-weaken", name: "weaken", type: "checkbox" }),
        el("label", { for: "import-weaken" }, "Also write lines that weaken a stored rule (lower its priority, revoke it, loosen its constraint)")),
      el("button", { type: "submit" }, "Import"));
    view.append(el("h2", {}, "Import and export"),
      el("section", { "aria-labelledby": "import-heading" }, el("h3", { id: "import-heading" }, "Import"),
        el("p", { class: "note" }, "The same import as toolmem import FILE, with its report line by line. If any line is not a rule, nothing is written. A file larger than the server's --max-body (1 MiB by default) is refused; import it with toolmem import."),
        importForm, report),
      el("section", { "aria-labelledby": "export-heading" }, el("h3", { id: "export-heading" }, "Export"),
        el("p", { class: "note" }, "Writes the chosen tools' rules, revoked ones included, one JSON object a line, as memory.tool_rule_list returns them: the file import reads."),
        exportRegion));
    return { refresh: async () => exportRegion.replaceChildren(exportForm(await listTools())) };
  }

  function exportForm(tools) {
    const form = el("form", { id: "export-form", class: "stack", onsubmit: async (event) => {
      event.preventDefault();
      const chosen = tools.map((tool) => tool.tool_name).filter((_, index) => form.elements["export-" + index].checked);
      try {
        const lists = all(await batch(chosen.map((tool) => ["memory.tool_rule_list", { tool_name: tool, include_revoked: true }])));
        const lines = lists.flat().map((rule) => JSON.stringify(rule));
        const blob = new Blob([lines.join("\n") + (lines.length ? "\n" : "")], { type: "application/x-ndjson" });
        const link = el("a", { href: URL.createObjectURL(blob), download: "toolmem-rules.jsonl" }, "download");
        link.click();
        URL.revokeObjectURL(link.href);
        say(`Exported ${lines.length} rules of ${chosen.length} tools.`);
      } catch (error) {
        fail(error);
      }
    } },
      el("fieldset", {}, el("legend", {}, "Tools to export"),
        tools.length ? tools.map((tool, index) => el("div", {},
          el("input", { type: "checkbox", id: "export-" + index, name: "export-" + index, checked: true }),
          el("label", { for: "export-" + index }, tool.tool_name))) : el("p", {}, "No tools yet.")),
      el("button", { type: "submit", disabled: tools.length === 0 }, "Export JSON lines"));
    return form;
  }

  function importReport(report) {
    const totals = ["created", "updated", "unchanged", "refused", "skipped", "invalid"]
      .filter((outcome) => report[outcome]).map((outcome) => `${report[outcome]} ${outcome}`).join(", ");
    const summary = report.written
      ? `Written: ${totals || "no lines"}.`
      : report.invalid
        ? `Nothing was written: ${report.invalid} line(s) are not rules. ${totals}.`
        : `Dry run, nothing written: ${totals || "no lines"}.`;
    return [
      el("p", { class: report.invalid || report.refused ? "warning" : "", id: "import-summary" }, summary),
      report.lines.length ? el("table", { id: "import-report" },
        el("caption", {}, "What each line did"),
        el("thead", {}, el("tr", {}, ...["Line", "Outcome", "Tool", "Id", "What changed, or why not"].map((name) => el("th", { scope: "col" }, name)))),
        el("tbody", {}, report.lines.map((line) => el("tr", { class: "outcome-" + line.outcome },
          el("td", { class: "number" }, line.line),
          el("td", {}, line.outcome),
          el("td", {}, line.tool_name ? el("a", { href: toolHref(line.tool_name) }, line.tool_name) : ""),
          el("td", {}, line.id ? el("code", {}, line.id) : ""),
          el("td", {}, [...(line.changes || []), line.reason].filter(Boolean).join("; ")))))) : null,
    ];
  }

  // ---- Start ---------------------------------------------------------------------------------

  tokenForm.addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, document.getElementById("token-input").value.trim());
    tokenForm.hidden = true;
    show();
  });
  window.addEventListener("hashchange", show);
  setInterval(poll, POLL_MS);
  listTools().catch(() => {}).finally(show);
})();
