// The playground page: a Telegram-like private chat with the bot, driven through the JSON API
// under /playground/api (see dev/playground/web/api.ts), and WhatsApp customers' chats beside it
// (./whatsapp.js). Plain ES modules, no build step.

import { createWhatsAppChats } from "./whatsapp.js";

const API = "/playground/api";
const TYPING_MS = 5000;
const SANDBOX_REFRESH_MS = 2000;

const $ = (id) => document.getElementById(id);
const els = {
  users: $("users"),
  botName: $("bot-name"),
  status: $("chat-status"),
  actingAs: $("acting-as"),
  messages: $("messages"),
  toast: $("toast"),
  replyKeyboard: $("reply-keyboard"),
  commands: $("commands"),
  composer: $("composer"),
  input: $("input"),
  menuButton: $("menu-button"),
  start: $("start"),
  startButton: $("start-button"),
  balance: $("balance"),
  deliveries: $("deliveries"),
  bookUsers: $("book-users"),
  journal: $("journal"),
};

const state = {
  users: [],
  userId: 0,
  /** The WhatsApp customers, and the one shown (then userId is 0). */
  waUsers: [],
  waId: null,
  /** Message rows of the chat shown, by message id. */
  rows: new Map(),
  unread: new Map(),
  typingTimer: 0,
  toastTimer: 0,
  sandboxTimer: 0,
  /** The chat reload under way: live changes arriving meanwhile wait in `pending`. */
  sync: null,
};

// ---------------------------------------------------------------- helpers

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

async function api(path, body) {
  const init =
    body === undefined
      ? {}
      : {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        };
  const res = await fetch(`${API}${path}`, init);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error ?? `HTTP ${res.status}`);
  return data;
}

const clock = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const clockSeconds = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

function showToast(text) {
  els.toast.textContent = text;
  els.toast.hidden = false;
  clearTimeout(state.toastTimer);
  state.toastTimer = setTimeout(() => {
    els.toast.hidden = true;
  }, 3000);
}

function currentUser() {
  return state.users.find((u) => u.id === state.userId);
}

// ---------------------------------------------------------------- users

function renderUsers() {
  els.users.replaceChildren(
    el("div", "users-head", "Telegram"),
    ...state.users.map((u, i) => {
      const item = el("button", `person${u.id === state.userId ? " active" : ""}`);
      item.type = "button";
      item.dataset.userId = String(u.id);
      const avatar = el("div", `avatar role-${u.role}${i === 1 ? " alt" : ""}`, u.name[0]);
      const who = el("div", "who");
      who.append(el("div", "uname", u.name), el("div", "role", `${u.label} · ${u.id}`));
      item.append(avatar, who);
      const unread = state.unread.get(u.id) ?? 0;
      if (unread > 0 && u.id !== state.userId) item.append(el("span", "badge", String(unread)));
      item.addEventListener("click", () => selectUser(u.id));
      return item;
    }),
  );
  if (state.waUsers.length === 0) return;
  els.users.append(
    el("div", "users-head", "WhatsApp"),
    ...state.waUsers.map((u, i) => {
      const item = el("button", `person wa${u.wa_id === state.waId ? " active" : ""}`);
      item.type = "button";
      item.dataset.waId = u.wa_id;
      const who = el("div", "who");
      const role = el("div", "role", `${u.label} `);
      role.append(el("span", "phone", u.phone));
      who.append(el("div", "uname", u.name), role);
      item.append(el("div", `avatar wa${i === 1 ? " alt" : ""}`, u.name[0]), who);
      item.addEventListener("click", () => selectWhatsApp(u.wa_id));
      return item;
    }),
  );
}

/** Shows a WhatsApp customer's chat: no commands, no reply keyboard, no START on WhatsApp. */
async function selectWhatsApp(waId) {
  const user = state.waUsers.find((u) => u.wa_id === waId);
  state.userId = 0;
  state.waId = waId;
  if (location.hash !== `#wa-${waId}`) history.replaceState(null, "", `#wa-${waId}`);
  renderUsers();
  els.actingAs.textContent = user ? `You are ${user.name} on WhatsApp (${user.phone})` : "";
  for (const hidden of [els.commands, els.start, els.replyKeyboard, els.menuButton])
    hidden.hidden = true;
  setTyping(false);
  els.status.textContent = "WhatsApp Business account";
  await whatsapp.open(waId);
  els.input.focus();
}

async function selectUser(id) {
  whatsapp.close();
  state.waId = null;
  state.userId = id;
  state.unread.delete(id);
  if (location.hash !== `#${id}`) history.replaceState(null, "", `#${id}`);
  renderUsers();
  const user = currentUser();
  els.actingAs.textContent = user ? `You are ${user.name} (${user.label.toLowerCase()})` : "";
  els.commands.hidden = true;
  renderCommands();
  await syncChat();
  els.input.focus();
}

function renderCommands() {
  const commands = currentUser()?.commands ?? [];
  els.menuButton.hidden = commands.length === 0;
  els.commands.replaceChildren(
    ...commands.map((c) => {
      const item = el("button", "command");
      item.type = "button";
      item.append(el("b", "", `/${c.command}`), el("span", "", c.description));
      item.addEventListener("click", () => {
        els.commands.hidden = true;
        void send(`/${c.command}`);
      });
      return item;
    }),
  );
}

// ---------------------------------------------------------------- chat

/** Reloads the whole chat of the user shown (user switch, reconnect). */
async function syncChat() {
  if (state.waId) return;
  const sync = { id: state.userId, pending: [] };
  state.sync = sync;
  let data;
  try {
    data = await api(`/users/${sync.id}/messages`);
  } finally {
    if (state.sync === sync) state.sync = null;
  }
  // A newer reload (another user chosen meanwhile) wins.
  if (sync.id !== state.userId || (state.sync !== null && state.sync !== sync)) return;
  state.rows.clear();
  els.messages.replaceChildren();
  // Whose chat the column shows now (a test waits for it after choosing a person).
  els.messages.dataset.chat = String(sync.id);
  for (const m of data.messages) insertMessage(m);
  renderReplyKeyboard(data.reply_keyboard, data.contact_buttons);
  setTyping(Boolean(data.typing));
  for (const apply of sync.pending) apply();
  updateEmpty();
  scrollToBottom();
}

/** Applies a change to the chat shown now, or after the reload under way. */
function whenSynced(apply) {
  if (state.sync) state.sync.pending.push(apply);
  else apply();
}

function updateEmpty() {
  const empty = state.rows.size === 0;
  els.start.hidden = !empty;
  const note = els.messages.querySelector(".empty");
  if (empty && !note) {
    els.messages.append(
      el("div", "empty", "No messages here yet. Press START, or type /recharge to top up a phone."),
    );
  } else if (!empty && note) note.remove();
}

function scrollToBottom() {
  els.messages.scrollTop = els.messages.scrollHeight;
}

/** The message text with its entities (bold, commands, links ...) as DOM nodes. */
function renderText(text, entities) {
  const frag = document.createDocumentFragment();
  let at = 0;
  const sorted = [...(entities ?? [])].sort((a, b) => a.offset - b.offset);
  for (const e of sorted) {
    if (e.offset < at) continue; // nested or overlapping: the outer entity wins
    if (e.offset > at) frag.append(text.slice(at, e.offset));
    const part = text.slice(e.offset, e.offset + e.length);
    frag.append(entityNode(e, part));
    at = e.offset + e.length;
  }
  if (at < text.length) frag.append(text.slice(at));
  return frag;
}

function entityNode(entity, part) {
  switch (entity.type) {
    case "bold":
      return el("b", "", part);
    case "italic":
      return el("i", "", part);
    case "underline":
      return el("u", "", part);
    case "strikethrough":
      return el("s", "", part);
    case "code":
    case "pre":
      return el("code", "", part);
    case "bot_command": {
      const link = el("a", "", part);
      link.href = "#";
      link.addEventListener("click", (ev) => {
        ev.preventDefault();
        void send(part);
      });
      return link;
    }
    case "url":
    case "text_link": {
      const link = el("a", "", part);
      link.href = entity.url ?? part;
      link.target = "_blank";
      link.rel = "noopener noreferrer";
      return link;
    }
    default:
      return document.createTextNode(part);
  }
}

function messageRow(m) {
  const row = el("div", `row ${m.from}`);
  row.dataset.id = String(m.id);
  const bubble = el("div", "bubble");
  if (m.kind === "sticker") bubble.append(el("div", "sticker", m.emoji ?? "🖼"));
  else if (m.kind === "photo") bubble.append(el("div", "muted", "🖼 Photo"));
  else if (m.kind === "contact") bubble.append(el("div", "muted", "📇 Contact shared"));
  if (m.text) {
    const text = el("div", "text");
    text.append(renderText(m.text, m.entities));
    bubble.append(text);
  }
  const meta = el("span", "meta");
  if (m.edited) meta.append(el("span", "edited", "edited"));
  const time = new Date(m.edited_time ?? m.time);
  const stamp = el("time", "", clock.format(new Date(m.time)));
  stamp.dateTime = m.time;
  stamp.title = time.toLocaleString();
  meta.append(stamp);
  if (m.from === "user") meta.append(" ✓✓");
  const text = bubble.querySelector(".text");
  (text ?? bubble).append(meta);
  row.append(bubble);
  if (m.inline_keyboard) row.append(inlineKeyboard(m));
  return row;
}

function inlineKeyboard(m) {
  const box = el("div", "keyboard");
  for (const buttons of m.inline_keyboard) {
    const line = el("div", "kb-row");
    for (const b of buttons) {
      if (b.url) {
        const link = el("a", "kb-button", `${b.text} ↗`);
        link.href = b.url;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        line.append(link);
        continue;
      }
      const button = el("button", "kb-button", b.text);
      button.type = "button";
      button.addEventListener("click", () => press(m.id, b.callback_data, button));
      line.append(button);
    }
    box.append(line);
  }
  return box;
}

function insertMessage(m) {
  const row = messageRow(m);
  const old = state.rows.get(m.id);
  state.rows.set(m.id, row);
  if (old) {
    old.replaceWith(row);
    return row;
  }
  // Ids increase in a chat; find the first row with a larger id (normally none).
  const later = [...state.rows.entries()].find(([id]) => id > m.id)?.[1];
  const typing = els.messages.querySelector(".typing-row");
  els.messages.insertBefore(row, later ?? typing ?? null);
  return row;
}

/** A request_contact button shares the user's own contact (the demo phone), as Telegram's does. */
async function shareContact() {
  try {
    await api(`/users/${state.userId}/contact`, {});
  } catch (err) {
    showToast(err.message);
  }
}

function renderReplyKeyboard(rows, contactLabels = []) {
  els.replyKeyboard.hidden = !rows || rows.length === 0;
  els.replyKeyboard.replaceChildren(
    ...(rows ?? []).map((labels) => {
      const line = el("div", "kb-row");
      for (const label of labels) {
        const button = el("button", "reply-button", label);
        button.type = "button";
        const contact = contactLabels.includes(label);
        button.addEventListener("click", () => void (contact ? shareContact() : send(label)));
        line.append(button);
      }
      return line;
    }),
  );
}

function setTyping(on) {
  clearTimeout(state.typingTimer);
  // WhatsApp shows no bot typing here (the stand-in's typing indicator rides on a read mark).
  const shown = on && !state.waId;
  els.status.textContent = shown ? "typing…" : state.waId ? "WhatsApp Business account" : "bot";
  els.status.classList.toggle("typing", shown);
  let row = els.messages.querySelector(".typing-row");
  if (on && !row) {
    row = el("div", "row bot typing-row");
    const bubble = el("div", "bubble");
    const dots = el("span", "dots");
    dots.append(el("i"), el("i"), el("i"));
    bubble.append(dots);
    row.append(bubble);
    els.messages.append(row);
    scrollToBottom();
  } else if (!on && row) row.remove();
  if (on) state.typingTimer = setTimeout(() => setTyping(false), TYPING_MS);
}

// ---------------------------------------------------------------- actions

async function send(text) {
  const value = text.trim();
  if (!value) return;
  els.commands.hidden = true;
  try {
    await api(`/users/${state.userId}/messages`, { text: value });
  } catch (err) {
    showToast(`Not sent: ${err.message}`);
  }
}

async function press(messageId, data, button) {
  button.classList.add("pressed");
  setTimeout(() => button.classList.remove("pressed"), 1500);
  try {
    await api(`/users/${state.userId}/callbacks`, { message_id: messageId, data });
  } catch (err) {
    showToast(err.message);
  }
}

els.composer.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = els.input.value;
  els.input.value = "";
  void (state.waId ? whatsapp.send(text) : send(text));
});
els.menuButton.addEventListener("click", () => {
  els.commands.hidden = !els.commands.hidden;
});
els.startButton.addEventListener("click", () => void send("/start"));

// ---------------------------------------------------------------- live updates

function connectEvents() {
  const events = new EventSource(`${API}/events`);
  const on = (type, handler) =>
    events.addEventListener(type, (ev) => {
      handler(JSON.parse(ev.data));
    });
  // Also after a reconnect: whatever happened meanwhile is in the transcript.
  on("ready", () => void syncChat().catch(() => {}));
  on("message", ({ user_id, message, reply_keyboard, contact_buttons }) => {
    if (message.from === "bot") scheduleSandboxRefresh(300);
    if (user_id !== state.userId) {
      if (message.from === "bot" && state.users.some((u) => u.id === user_id)) {
        state.unread.set(user_id, (state.unread.get(user_id) ?? 0) + 1);
        renderUsers();
      }
      return;
    }
    whenSynced(() => {
      if (message.from === "bot") setTyping(false);
      insertMessage(message);
      renderReplyKeyboard(reply_keyboard, contact_buttons);
      updateEmpty();
      scrollToBottom();
    });
  });
  on("edit", ({ user_id, message }) => {
    scheduleSandboxRefresh(300);
    if (user_id !== state.userId) return;
    whenSynced(() => {
      const nearBottom =
        els.messages.scrollHeight - els.messages.scrollTop - els.messages.clientHeight < 80;
      const row = insertMessage(message);
      const bubble = row.querySelector(".bubble");
      bubble?.classList.add("flash");
      bubble?.addEventListener("animationend", () => bubble.classList.remove("flash"), {
        once: true,
      });
      if (nearBottom) scrollToBottom();
    });
  });
  on("delete", ({ user_id, message_id }) => {
    if (user_id !== state.userId) return;
    whenSynced(() => {
      state.rows.get(message_id)?.remove();
      state.rows.delete(message_id);
      updateEmpty();
    });
  });
  on("typing", ({ user_id, action }) => {
    if (user_id === state.userId) setTyping(action === "typing" || action.startsWith("upload"));
  });
  on("callback_answer", ({ user_id, text }) => {
    if (user_id === state.userId && text) showToast(text);
  });
}

// ---------------------------------------------------------------- sandbox panel

function pill(text, tone) {
  return el("span", `pill ${tone}`, text);
}

function statusTone(status) {
  if (status === "success") return "success";
  if (status === "failed") return "failed";
  return "pending";
}

function deliveryRow(d) {
  const tr = el("tr");
  tr.dataset.deliveryId = String(d.id);
  const when = el("td", "mono", clockSeconds.format(new Date(d.time)));
  const status = el("td");
  status.append(
    d.kind === "connect" ? pill("connect", "wait") : pill(d.status ?? "?", statusTone(d.status)),
  );
  const order = el("td", "mono", d.order_id ?? "—");
  const http = el("td");
  if (d.http_status !== null) {
    http.append(pill(String(d.http_status), d.http_status < 300 ? "ok" : "bad"));
  } else {
    http.append(pill(d.state === "failed" ? "failed" : d.state, d.error ? "bad" : "wait"));
  }
  if (d.error) http.title = d.error;
  if (d.attempts > 1) http.append(el("span", "muted", ` ×${d.attempts}`));
  tr.append(when, status, order, http);
  return tr;
}

async function refreshSandbox() {
  try {
    const data = await api("/sandbox");
    if (!data.enabled) {
      els.balance.textContent = "—";
      const cell = el("td", "muted", "A real provider is configured; there is no sandbox.");
      cell.colSpan = 4;
      const row = el("tr");
      row.append(cell);
      els.deliveries.replaceChildren(row);
      return;
    }
    els.balance.textContent = data.balance;
    if (data.deliveries.length === 0) return;
    els.deliveries.replaceChildren(...data.deliveries.map(deliveryRow));
  } catch {
    // The next refresh tries again.
  }
}

// ---------------------------------------------------------------- the merchant's books

function cellRow(cells) {
  const tr = el("tr");
  for (const [text, className] of cells) tr.append(el("td", className ?? "", text));
  return tr;
}

function emptyRow(text, span) {
  const cell = el("td", "muted", text);
  cell.colSpan = span;
  const tr = el("tr");
  tr.append(cell);
  return tr;
}

async function refreshBooks() {
  try {
    const data = await api("/books");
    if (!data.enabled) {
      els.bookUsers.replaceChildren(emptyRow("No books yet.", 3));
      return;
    }
    els.bookUsers.replaceChildren(
      ...data.users.map((u) =>
        cellRow([
          [`${u.name} (${u.role})`],
          [u.phone ?? "not registered", "mono"],
          [u.held ? `${u.available} (held ${u.held})` : u.available, "mono"],
        ]),
      ),
    );
    if (data.journal.length === 0) {
      els.journal.replaceChildren(emptyRow("None yet", 4));
      return;
    }
    els.journal.replaceChildren(
      ...data.journal.map((e) => {
        const tr = cellRow([
          [clockSeconds.format(new Date(e.time)), "mono"],
          [e.kind],
          [`${e.debit} → ${e.credit}`, "mono"],
          [e.amount, "mono"],
        ]);
        tr.title = e.reason ? `${e.id}: ${e.reason}` : e.id;
        return tr;
      }),
    );
  } catch {
    // The next refresh tries again.
  }
}

function scheduleSandboxRefresh(delayMs) {
  clearTimeout(state.sandboxTimer);
  state.sandboxTimer = setTimeout(async () => {
    await refreshSandbox();
    await refreshBooks();
    scheduleSandboxRefresh(SANDBOX_REFRESH_MS);
  }, delayMs);
}

// ---------------------------------------------------------------- start

const whatsapp = createWhatsAppChats({
  els,
  el,
  api,
  showToast,
  clock,
  onActivity: () => scheduleSandboxRefresh(300),
});

async function main() {
  const data = await api("/users");
  state.users = data.users;
  state.waUsers = await whatsapp.users();
  els.botName.textContent = data.bot.name;
  const waHash = location.hash.startsWith("#wa-") ? location.hash.slice(4) : null;
  if (state.waUsers.some((u) => u.wa_id === waHash)) {
    connectEvents();
    scheduleSandboxRefresh(0);
    await selectWhatsApp(waHash);
    return;
  }
  const fromHash = Number(location.hash.slice(1));
  const first = state.users.some((u) => u.id === fromHash) ? fromHash : state.users[0]?.id;
  connectEvents();
  scheduleSandboxRefresh(0);
  await selectUser(first ?? 1001);
}

main().catch((err) => showToast(`The playground did not load: ${err.message}`));
