// The page's one script: a terminal (xterm.js and its fit addon) joined
// to a session of the course over a WebSocket on the page's own origin.
// Binary frames carry the terminal's input and output; text frames carry
// its size as {"cols":…,"rows":…}. The route the page was opened at
// (/, /c/CODE, /s/STORYCODE) is the session's route under /ws.
(function () {
  "use strict";
  var status = document.getElementById("status");
  var term = new Terminal({
    cursorBlink: false,
    fontFamily: "ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', monospace",
    fontSize: 15,
    theme: { background: "#000000", foreground: "#dddddd" },
    screenReaderMode: localStorage.getItem("locksim.reader") === "1",
  });
  var fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(document.getElementById("term"));
  fit.fit();

  var reader = document.getElementById("reader");
  reader.setAttribute("aria-pressed", String(term.options.screenReaderMode));
  reader.addEventListener("click", function () {
    var on = !term.options.screenReaderMode;
    term.options.screenReaderMode = on;
    reader.setAttribute("aria-pressed", String(on));
    localStorage.setItem("locksim.reader", on ? "1" : "0");
    term.focus();
  });

  // the link beside the terminal goes to the scene on screen as a page,
  // read off the title line ("locksim SCENE · …"), to its question and
  // no further: the learner may not have answered yet (the full handout,
  // answers included, is on /plain/SCENE); elsewhere (the contents) to
  // the list of transcripts
  var transcript = document.getElementById("transcript");
  term.onWriteParsed(function () {
    var buf = term.buffer.active;
    var line = buf.getLine(buf.viewportY);
    var m = line && /^\s*locksim ([a-z0-9-]+) \u00b7/.exec(line.translateToString(true));
    // a story of the lab ("locksim lab · …") has no page of its own
    if (m && m[1] === "lab") m = null;
    var href = m ? "/plain/ask/" + m[1] : "/plain/";
    if (transcript.getAttribute("href") !== href) {
      transcript.setAttribute("href", href);
      transcript.textContent = m ? m[1] + " to its question, as a page" : "transcripts as pages";
    }
  });

  var scheme = location.protocol === "https:" ? "wss:" : "ws:";
  var ws = new WebSocket(scheme + "//" + location.host + "/ws" + location.pathname);
  ws.binaryType = "arraybuffer";
  var encoder = new TextEncoder();
  function sendSize() {
    if (ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ cols: term.cols, rows: term.rows }));
    }
  }
  ws.onopen = function () {
    status.textContent = "connected";
    sendSize();
    term.focus();
  };
  ws.onmessage = function (e) {
    if (typeof e.data !== "string") {
      term.write(new Uint8Array(e.data));
    }
  };
  ws.onclose = function (e) {
    status.textContent = e.reason ? "closed: " + e.reason : "the session has ended; reload the page to start again";
  };
  term.onData(function (d) {
    if (ws.readyState === WebSocket.OPEN) {
      ws.send(encoder.encode(d));
    }
  });
  term.onResize(sendSize);
  window.addEventListener("resize", function () { fit.fit(); });
})();
