// Progressive enhancement of the ask page: answers arrive without a page
// reload and join the conversation; ↑ in the empty box brings back the
// last question. Without this script the form posts and the server
// renders the same answer into the whole page.
(function () {
  "use strict";
  var form = document.getElementById("ask");
  if (!form || !window.fetch || !window.FormData) { return; }
  var box = document.getElementById("q");
  var conversation = document.getElementById("conversation");
  var convField = form.querySelector('input[name="c"]');
  var label = form.querySelector('label[for="q"]');
  var fresh = form.querySelector(".new");
  var busy = false;

  function problem(text) {
    var old = document.getElementById("problem");
    if (old) { old.remove(); }
    box.removeAttribute("aria-invalid");
    if (!text) { return; }
    var p = document.createElement("p");
    p.className = "problem";
    p.id = "problem";
    p.setAttribute("role", "alert");
    p.textContent = text;
    document.getElementById("hint").after(p);
    box.setAttribute("aria-invalid", "true");
  }

  function ask(data, question) {
    if (busy) { return; }
    busy = true;
    form.setAttribute("aria-busy", "true");
    fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(data),
      headers: { "X-Memdb-Oracle-Fragment": "1" },
      credentials: "same-origin"
    }).then(function (resp) {
      return resp.text().then(function (html) { return { resp: resp, html: html }; });
    }).then(function (r) {
      var id = r.resp.headers.get("X-Conversation");
      var type = r.resp.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") === 0) {
        // The API's gate refused (a missing key, a rate limit): its JSON
        // says why.
        var msg = "";
        try { msg = JSON.parse(r.html).error; } catch (e) { msg = ""; }
        problem(msg || "The server refused the question (HTTP " + r.resp.status + ").");
        return;
      }
      if (type.indexOf("text/html") !== 0) {
        problem("The server could not answer (HTTP " + r.resp.status + "); ask again in a moment.");
        return;
      }
      if (r.resp.status === 400) {
        var tmp = document.createElement("div");
        tmp.innerHTML = r.html;
        problem(tmp.textContent.trim());
        return;
      }
      problem("");
      if (id) {
        convField.value = id;
        label.textContent = "Follow-up question";
        if (fresh) { fresh.hidden = false; }
      }
      conversation.insertAdjacentHTML("beforeend", r.html);
      form.dataset.last = question;
      box.value = "";
      var turn = conversation.lastElementChild;
      if (turn) { turn.scrollIntoView({ block: "start" }); }
    }).catch(function () {
      problem("The answer could not be fetched; check the connection and ask again.");
    }).then(function () {
      busy = false;
      form.removeAttribute("aria-busy");
      box.focus({ preventScroll: true });
    });
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var data = new FormData(form);
    var chip = ev.submitter && ev.submitter.name === "chip" ? ev.submitter.value : "";
    if (chip) { data.set("chip", chip); }
    var question = (chip || box.value).trim();
    if (!question) {
      problem("Type a question first, or pick one of the examples.");
      return;
    }
    data.delete("h");
    ask(data, question);
  });

  box.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowUp" && box.value === "" && form.dataset.last) {
      ev.preventDefault();
      box.value = form.dataset.last;
    }
  });
})();
