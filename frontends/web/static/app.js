// The live page of spb serve: the board follows the game through server-sent events (EventSource
// reconnects by itself and the server sends the whole board again on every connection, so a lost
// connection catches up), and a move is posted without reloading; the answer says why a refused move
// was refused. Without scripts the forms post and the page is drawn anew.
"use strict";
(function () {
  const game = document.getElementById("game");
  const status = document.getElementById("status");
  const problem = document.getElementById("problem");
  const note = document.getElementById("note");
  if (!game || !window.EventSource) {
    return;
  }

  function show(board) {
    const typed = document.getElementById("notation");
    const keep = typed && document.activeElement === typed ? typed.value : null;
    game.innerHTML = board;
    const again = document.getElementById("notation");
    if (keep !== null && again) {
      again.value = keep;
      again.focus();
    }
  }

  function connect() {
    const source = new EventSource(game.dataset.events);
    source.addEventListener("open", function () {
      status.textContent = status.dataset.live;
    });
    source.addEventListener("board", function (event) {
      show(event.data);
    });
    source.addEventListener("error", function () {
      status.textContent = status.dataset.lost;
      if (source.readyState === EventSource.CLOSED) {
        window.setTimeout(connect, 1000);
      }
    });
  }

  document.addEventListener("submit", async function (event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !game.contains(form)) {
      return;
    }
    event.preventDefault();
    const body = new URLSearchParams(new FormData(form));
    try {
      const response = await fetch(form.action, {
        method: "POST", body: body, headers: {"Accept": "application/json"}, credentials: "same-origin",
      });
      const answer = await response.json();
      problem.textContent = answer.problem || "";
      note.textContent = answer.note || "";
      if (answer.board) {
        show(answer.board);
      }
    } catch (error) {
      problem.textContent = status.dataset.lost;
    }
  });

  connect();
})();
