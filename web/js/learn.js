// Learning the games: the Learn index, a game's lessons in order (progress kept by the server for
// an account, in this browser otherwise), and the Puzzles and Daily puzzle pages. The boards are
// the game page's (boards/common.js): they draw the positions the server sends, and a move they
// submit goes to the server, which judges it (a puzzle's reply is the server's, played out).

import * as api from "./api.js";
import { loadBoard } from "./boards/common.js";
import { fill, h } from "./dom.js";
import * as storage from "./storage.js";

const PUZZLE_KINDS = ["factor-bingo", "factor-multiple", "partition", "ploid"];
const PROGRESS_KEY = "postplay.lessons";

/** A game object for a board that shows a position outside any game. */
function boardGame(kind, options, toMove) {
  return { id: null, kind, options, status: "active", first: 0, to_move: toMove, ply: 0,
           result: null, seats: [{ name: "You", bot: null, open: false },
                                 { name: "Opponent", bot: null, open: false }] };
}

async function board(root, kind, submit) {
  const module = await loadBoard(kind);
  return { module, board: module.create({ root, submit, gameId: null }) };
}

function draw(drawn, kind, options, position, seat) {
  drawn.board.update({ game: boardGame(kind, options, position.to_move), state: position.state,
                       seat, mine: [position.to_move ?? seat], legal: position.legal ?? null,
                       last: null, recent: [], ply: 0, live: true });
}

/** Run `fn` once the board has taken its submit's answer (and dropped the move it played). */
const later = (fn) => setTimeout(fn, 0);

export function mountLearnIndex(root) {
  api.kinds().then((kinds) => fill(root, h("section", { class: "card learn" },
    h("h1", {}, "Learn"),
    h("p", {}, "Lessons teach each game one rule at a time. Puzzles are positions from real "
      + "games where a solver proves one move wins and every other does not."),
    h("ul", { class: "kinds" }, kinds.map((k) => h("li", {},
      h("strong", {}, k.title), " — ",
      h("a", { href: `#/learn/${k.kind}` }, "Lessons"),
      PUZZLE_KINDS.includes(k.kind) ? [" · ", h("a", { href: `#/puzzles/${k.kind}` }, "Puzzles"),
        " · ", h("a", { href: `#/daily/${k.kind}` }, "Daily puzzle")] : " (no puzzles: no solver)"))))))
    .catch((err) => fill(root, h("p", { class: "alert", role: "alert" }, err.message)));
  return {};
}

function localProgress() {
  try { return JSON.parse(localStorage.getItem(PROGRESS_KEY)) || []; } catch { return []; }
}

export function mountLearn(root, kind) {
  const list = h("ol", { class: "lessons" });
  fill(root, h("section", { class: "card learn" }, h("h1", {}, `Learn ${kind}`),
    h("p", {}, h("a", { href: `#/rules/${kind}` }, "The rules"),
      PUZZLE_KINDS.includes(kind) ? [" · ", h("a", { href: `#/puzzles/${kind}` }, "Puzzles")] : null),
    list));
  const signedIn = Boolean(storage.account());
  Promise.all([api.lessons(kind), signedIn ? api.myPuzzles().catch(() => null) : null])
    .then(([lessons, mine]) => {
      const passed = new Set(mine ? mine.lessons_passed : localProgress());
      fill(list, lessons.map((lesson) => lessonItem(kind, lesson, passed)));
    })
    .catch((err) => fill(list, h("li", { class: "alert", role: "alert" }, err.message)));
  return {};
}

function lessonItem(kind, lesson, passed) {
  const key = `${kind}:${lesson.n}`;
  const verdict = h("p", { class: "lesson-verdict", role: "status", "aria-live": "polite" },
    passed.has(key) ? "Passed." : "");
  const boardRoot = h("div", { class: "lesson-board" });
  const item = h("li", { class: "lesson", dataset: { n: lesson.n } },
    h("h2", {}, lesson.title), h("p", { class: "task" }, lesson.task), boardRoot, verdict);
  let drawn = null;
  board(boardRoot, kind, async (move) => {
    const answer = await api.checkLesson(kind, lesson.n, move);
    verdict.textContent = answer.passed ? "Passed." : `Not yet: ${answer.why}`;
    item.classList.toggle("passed", answer.passed);
    if (answer.passed && !storage.account()) {
      localStorage.setItem(PROGRESS_KEY, JSON.stringify([...new Set([...localProgress(), key])]));
    }
    later(() => draw(drawn, kind, lesson.options, lesson, lesson.to_move));
    return answer.passed;
  }).then((made) => {
    drawn = made;
    draw(drawn, kind, lesson.options, lesson, lesson.to_move);
  });
  return item;
}

export function mountPuzzles(root, kind) {
  return mountPuzzle(root, kind, () => api.nextPuzzle(kind), "Puzzles");
}

export function mountDaily(root, kind) {
  return mountPuzzle(root, kind, () => api.dailyPuzzle(kind), "Daily puzzle");
}

function mountPuzzle(root, kind, load, heading) {
  const title = h("h1", {}, `${heading}: ${kind}`);
  const about = h("p", { class: "muted" }, "Loading the puzzle…");
  const boardRoot = h("div", { class: "puzzle-board" });
  const result = h("div", { class: "puzzle-result", role: "status", "aria-live": "polite" });
  const mine = h("div", { class: "puzzle-mine" });
  const again = h("button", { type: "button", hidden: true }, "Next puzzle");
  const section = h("section", { class: "card puzzle" }, title, about, boardRoot, result, again, mine,
    h("p", {}, h("a", { href: `#/learn/${kind}` }, "Lessons"), " · ",
      h("a", { href: `#/rules/${kind}` }, "Rules")));
  fill(root, section);
  let puzzle = null;
  let moves = [];
  let drawn = null;
  again.addEventListener("click", () => start());

  async function submit(move) {
    const tried = [...moves, move];
    const answer = await api.attemptPuzzle(puzzle.id, tried);
    later(() => draw(drawn, kind, puzzle.options, answer, answer.more ? puzzle.to_move : null));
    if (answer.more) {
      moves = tried;
      fill(result, h("p", {}, "Right. The server replied; go on."), lineOf(answer.line));
      return true;
    }
    fill(result, h("p", { class: answer.solved ? "solved" : "failed" },
      answer.solved ? "Solved!" : "Not the winning move."),
      answer.expected ? h("p", {}, `The move that wins: ${answer.expected_words}`) : null,
      answer.rating ? h("p", {}, `Your puzzle rating: ${answer.rating.before} → ${answer.rating.after}`)
        : null,
      h("h2", {}, "The line"), lineOf(answer.solution),
      h("h2", {}, "The solver's verdict of each first move"),
      h("ul", { class: "verdicts" }, answer.verdicts.map((v) => h("li", {},
        `${v.words}: ${v.wins ? "wins" : "does not win"}`))));
    again.hidden = false;
    showMine();
    return true;
  }

  function lineOf(line) {
    return h("ol", { class: "line" }, line.map((step) => h("li", {},
      `${step.by === "server" || step.seat !== puzzle.to_move ? "Server" : "You"}: `
      + step.words)));
  }

  function showMine() {
    if (!storage.account()) return;
    api.myPuzzles().then((me) => fill(mine,
      h("p", {}, `Your ${kind} puzzle rating: ${me.ratings[kind]?.rating ?? 1500}`),
      h("ul", { class: "history" }, me.history.filter((t) => t.kind === kind).slice(0, 10)
        .map((t) => h("li", {}, `${t.solved ? "solved" : "missed"} (${t.before} → ${t.after})`)))))
      .catch(() => {});
  }

  async function start() {
    again.hidden = true;
    fill(result);
    moves = [];
    try {
      puzzle = await load();
    } catch (err) {
      fill(about, err.message);
      return;
    }
    section.dataset.puzzle = puzzle.id;
    about.textContent = `Rating ${puzzle.rating} · ${puzzle.solver_moves} move(s) to find · `
      + "the side to move wins with one move only.";
    drawn = drawn ?? await board(boardRoot, kind, submit);
    draw(drawn, kind, puzzle.options, puzzle, puzzle.to_move);
    showMine();
  }

  start();
  return {};
}
