// The index page: every installed game, with a link to its page.
"use strict";
(async () => {
  const r = await fetch("/api/games", { headers: GG.authHeaders() });
  const data = await r.json();
  const list = document.getElementById("games");
  for (const g of data.games) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = (g.kind === "puzzle" ? "/puzzle/" : "/play/") + encodeURIComponent(g.name);
    a.textContent = g.name;
    a.className = "game-link";
    li.appendChild(a);
    const about = document.createElement("div");
    about.className = "muted";
    about.textContent = `${g.kind === "puzzle" ? "puzzle" : "game"}: ${g.summary}`;
    li.appendChild(about);
    if ((g.hooks || []).includes("drill")) { // the drill page: the positions before a game's mistakes
      const drill = document.createElement("a");
      drill.href = `/drill/${encodeURIComponent(g.name)}`;
      drill.textContent = "drill";
      drill.className = "drill-link";
      li.append(" · ", drill);
    }
    list.appendChild(li);
  }
  for (const b of data.broken) {
    const li = document.createElement("li");
    li.textContent = `${b.name}: broken (${b.reason})`;
    list.appendChild(li);
  }
})();
