// Live progress of a research run started from the page: server-sent events, then its report.
"use strict";
(function () {
  const box = document.getElementById("progress");
  if (!box) return;
  const source = new EventSource(box.dataset.stream);
  const add = (text) => {
    const line = document.createElement("div");
    line.textContent = text;  // text only: event summaries quote page titles
    box.appendChild(line);
  };
  source.addEventListener("progress", (e) => add(JSON.parse(e.data).line));
  source.addEventListener("failed", (e) => add("failed: " + JSON.parse(e.data).message));
  source.addEventListener("done", (e) => {
    source.close();
    const url = JSON.parse(e.data).url;
    if (url && url.startsWith("/")) window.location.assign(url);
  });
})();
