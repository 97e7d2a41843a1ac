// The playground's WhatsApp chats: a customer's phone played through the WhatsApp Cloud API
// stand-in (see dev/playground/web/whatsapp.ts), drawn as WhatsApp draws it: reply buttons under
// the message, a list behind its "☰" opener, templates as cards, and no edits (every message
// stays as sent). The stand-in has no event stream, so the chat shown is polled.

const POLL_MS = 700;
const TICKS = { accepted: "🕓", sent: "✓", delivered: "✓✓", read: "✓✓", failed: "⚠" };

/** Text with WhatsApp's markup (*bold*, _italic_, ~strike~, ```mono```) as DOM nodes. */
function waText(el, text) {
  const frag = document.createDocumentFragment();
  const pattern = /```([^`]+)```|\*([^*\n]+)\*|_([^_\n]+)_|~([^~\n]+)~/g;
  let at = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > at) frag.append(text.slice(at, m.index));
    if (m[1] !== undefined) frag.append(el("code", "", m[1]));
    else if (m[2] !== undefined) frag.append(el("b", "", m[2]));
    else if (m[3] !== undefined) frag.append(el("i", "", m[3]));
    else frag.append(el("s", "", m[4]));
    at = m.index + m[0].length;
  }
  if (at < text.length) frag.append(text.slice(at));
  return frag;
}

export function createWhatsAppChats({ els, el, api, showToast, clock, onActivity }) {
  const chat = { waId: null, ids: [], rows: new Map(), timer: 0, busy: false };

  function meta(m) {
    const box = el("span", "meta");
    const stamp = el("time", "", clock.format(new Date(m.time)));
    stamp.dateTime = m.time;
    box.append(stamp);
    // The user's own messages are sent from this phone; a business message shows the status
    // WhatsApp reported for it (what the product's webhook received), as a developer aid.
    if (m.from === "user") box.append(el("span", "ticks read", " ✓✓"));
    else if (m.status) {
      const ticks = el("span", `ticks ${m.status}`, ` ${TICKS[m.status] ?? ""}`);
      ticks.title = `status: ${m.status}`;
      box.append(ticks);
    }
    return box;
  }

  function tapButton(m, b, className) {
    const button = el("button", className);
    button.type = "button";
    button.dataset.id = b.id;
    button.append(el("span", "wa-row-title", b.title));
    if (b.description) button.append(el("span", "wa-row-desc", b.description));
    button.addEventListener("click", () => void tap(m.id, b.id, button));
    return button;
  }

  function listBox(m) {
    const details = el("details", "wa-list");
    const summary = el("summary", "wa-button", `☰ ${m.list.button}`);
    const rows = el("div", "wa-list-rows");
    rows.append(el("div", "wa-list-head", m.list.button));
    for (const section of m.list.sections) {
      if (section.title) rows.append(el("div", "wa-section-title", section.title));
      for (const r of section.rows) rows.append(tapButton(m, r, "wa-row"));
    }
    details.append(summary, rows);
    // Opened near the bottom of the chat, the rows would hide below the fold.
    details.addEventListener("toggle", () => {
      if (details.open) rows.scrollIntoView({ block: "nearest" });
    });
    return details;
  }

  function messageRow(m) {
    const row = el("div", `row wa ${m.from === "user" ? "user" : "bot"} kind-${m.kind}`);
    row.dataset.wamid = m.id;
    const bubble = el("div", "bubble");
    if (m.template) {
      const tag = `Template · ${m.template.name} (${m.template.language})`;
      bubble.append(el("div", "wa-template-tag", tag));
    }
    if (m.reply_to) bubble.append(el("div", "wa-quote", m.reply_to.text));
    if (m.header) bubble.append(el("div", "wa-header", m.header));
    if (m.document) {
      const kb = Math.max(1, Math.round(m.document.size / 1024));
      bubble.append(el("div", "wa-document", `📄 ${m.document.filename} · ${kb} KB`));
    }
    const text = el("div", "text");
    text.append(waText(el, m.text), meta(m));
    bubble.append(text);
    if (m.footer) bubble.append(el("div", "wa-footer", m.footer));
    row.append(bubble);
    if (m.buttons.length > 0) {
      const box = el("div", "wa-buttons");
      for (const b of m.buttons) box.append(tapButton(m, b, "wa-button"));
      row.append(box);
    }
    if (m.list) row.append(listBox(m));
    if (m.url) {
      const link = el("a", "wa-button", `↗ ${m.url.display_text}`);
      link.href = m.url.url;
      link.target = "_blank";
      link.rel = "noopener noreferrer";
      row.append(link);
    }
    return row;
  }

  function render(messages) {
    const ids = messages.map((m) => m.id);
    const prefix = chat.ids.every((id, i) => ids[i] === id);
    if (!prefix) {
      chat.rows.clear();
      els.messages.replaceChildren();
      chat.ids = [];
    }
    const fresh = messages.slice(chat.ids.length);
    for (const m of messages.slice(0, chat.ids.length)) {
      // No edits on WhatsApp: only a business message's ticks change.
      const old = chat.rows.get(m.id);
      if (old && m.status && old.dataset.status !== m.status) {
        old.querySelector(".meta")?.replaceWith(meta(m));
        old.dataset.status = m.status;
      }
    }
    for (const m of fresh) {
      const row = messageRow(m);
      if (m.status) row.dataset.status = m.status;
      chat.rows.set(m.id, row);
      els.messages.append(row);
    }
    chat.ids = ids;
    const note = els.messages.querySelector(".empty");
    if (ids.length === 0 && !note)
      els.messages.append(el("div", "empty", "No messages here yet. Say hi, as on WhatsApp."));
    else if (ids.length > 0) note?.remove();
    if (fresh.length > 0) {
      els.messages.scrollTop = els.messages.scrollHeight;
      if (fresh.some((m) => m.from === "business")) onActivity();
    }
  }

  async function sync() {
    const waId = chat.waId;
    if (!waId || chat.busy) return;
    chat.busy = true;
    try {
      const data = await api(`/whatsapp/users/${waId}/messages`);
      if (chat.waId === waId) render(data.messages);
    } catch (err) {
      showToast(err.message);
    } finally {
      chat.busy = false;
    }
  }

  function poll() {
    clearTimeout(chat.timer);
    chat.timer = setTimeout(async () => {
      await sync();
      if (chat.waId) poll();
    }, POLL_MS);
  }

  async function tap(wamid, id, button) {
    button.classList.add("pressed");
    setTimeout(() => button.classList.remove("pressed"), 1500);
    button.closest("details")?.removeAttribute("open");
    try {
      await api(`/whatsapp/users/${chat.waId}/taps`, { wamid, id });
      await sync();
    } catch (err) {
      showToast(err.message);
    }
  }

  return {
    /** The WhatsApp customers of the switcher; none when no stand-in runs. */
    async users() {
      const data = await api("/whatsapp/users").catch(() => ({ enabled: false }));
      return data.enabled ? data.users : [];
    },
    get current() {
      return chat.waId;
    },
    async open(waId) {
      chat.waId = waId;
      chat.ids = [];
      chat.rows.clear();
      els.messages.replaceChildren();
      els.messages.dataset.chat = `wa-${waId}`;
      els.messages.classList.add("wa");
      await sync();
      poll();
    },
    close() {
      chat.waId = null;
      clearTimeout(chat.timer);
      els.messages.classList.remove("wa");
    },
    async send(text) {
      const value = text.trim();
      if (!value || !chat.waId) return;
      try {
        await api(`/whatsapp/users/${chat.waId}/messages`, { text: value });
        await sync();
      } catch (err) {
        showToast(`Not sent: ${err.message}`);
      }
    },
  };
}
