#!/usr/bin/env bash
# Measures whether the editor's UI thread keeps drawing while an AI thinks
# (issue 35: a frame at least every 50 ms). For each case it opens the
# editor under Xvfb directly on a playtest whose seats are all AI (a state
# file naming the game and its seats, `TESSERA_STATE_FILE`), lets it play
# for SECONDS with the frame log on (`TESSERA_FRAME_LOG`), and prints the
# gaps between the starts of consecutive frames while an AI worker was
# computing: how many, the median, p99, the longest, and how many were
# over 50 ms. The AI's "thinking" line animates, so the window repaints
# without any input.
#
# usage: tools/editor-frames.sh [SECONDS] [CASE...]
#   CASE: god (Tetris feed, hate feeder, GOD places), master (the same,
#   MASTER places), expert (Azul, two expert seats), and sand (no AI: the
#   falling grains repaint every frame; the baseline the others are read
#   against, since the machine and the software renderer set the frame
#   time too); default all four.
# env:   EDITOR (default target/debug/tessera-editor, built with
#        `cargo build -p tessera-editor`), DISPLAY_NUMBER (default 197; a
#        display in use is refused),
#        KEEP=1 keeps each case's folder (state, frame log, and a
#        screenshot taken after the measured window),
#        WARMUP_MS (default 1000): frames starting this soon after the
#        editor starts are the window opening, reported apart.
# Run from the repository root; it is the project the editor opens.
set -euo pipefail

seconds=${1:-60}
shift || true
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(sand god master expert)
editor=${EDITOR:-target/debug/tessera-editor}
WARMUP_MS=${WARMUP_MS:-1000}
display=":${DISPLAY_NUMBER:-197}"
[ -x "$editor" ] || { echo "no editor at $editor: cargo build -p tessera-editor" >&2; exit 2; }
# A display of our own: another session's would get our windows.
if [ -e "/tmp/.X11-unix/X${display#:}" ]; then
    echo "display $display is in use: set DISPLAY_NUMBER to a free one" >&2
    exit 2
fi

Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
sleep 1

# The state file that opens the editor on one playtest: game, then the
# toolbar's choice (mode and seats) for it; no level, so no level's own
# seats override them.
state_for() {
    case $1 in
        god | master) cat <<EOF
(
    playtest: Some(("tetris", None)),
    playtest_options: {
        "tetris": (mode: Some("feed"), seats: [Ai(level: "hate"), Ai(level: "$1")]),
    },
)
EOF
            ;;
        expert) cat <<EOF
(
    playtest: Some(("azul", None)),
    playtest_options: {
        "azul": (seats: [Ai(level: "expert"), Ai(level: "expert")]),
    },
)
EOF
            ;;
        sand) cat <<EOF
(
    playtest: Some(("sand", None)),
)
EOF
            ;;
        *) echo "unknown case $1 (sand, god, master, expert)" >&2; exit 2 ;;
    esac
}

# Reads a frame log; prints one row: frames, then for the gaps while an AI
# computed (either frame of the pair saw it computing): count, median,
# p99, max, over 50 ms, and the same for every gap.
summarise() {
    # Frames that start in the first WARMUP_MS are the window opening (GL
    # shaders compiled, the font atlas uploaded), not a frame drawn while
    # an AI thinks: they are left out and their longest gap printed apart.
    awk -v warm="$WARMUP_MS" 'NR > 1 {
            if (seen && $1 >= warm) { gap = $1 - last; print gap, (busy || $3) ? 1 : 0 }
            else if (seen) { gap = $1 - last; if (gap > opening) opening = gap }
            last = $1; busy = $3; seen = 1
        }
        END { printf "%.1f\n", opening > "/dev/stderr" }' "$1" >"$1.gaps" 2>"$1.opening"
    stats() { # reads gaps on stdin
        sort -n | awk '{ g[NR] = $1; if ($1 > 50) over++ }
            END {
                if (NR == 0) { printf "0 - - - 0"; exit }
                rank = NR * 0.99; if (rank > int(rank)) rank = int(rank) + 1  # nearest rank
                p99 = g[rank]
                printf "%d %.1f %.1f %.1f %d", NR, g[int((NR + 1) / 2)], p99, g[NR], over + 0
            }'
    }
    local busy all
    busy=$(awk '$2 == 1 { print $1 }' "$1.gaps" | stats)
    all=$(awk '{ print $1 }' "$1.gaps" | stats)
    echo "$busy | $all"
}

printf '%-7s | %s | %s | %s\n' case "AI computing: gaps median_ms p99_ms max_ms over_50ms" \
    "all frames: gaps median_ms p99_ms max_ms over_50ms" \
    "frames, CPU ms per frame: UI thread, renderer threads"
for case in "${cases[@]}"; do
    dir=$(mktemp -d "/tmp/editor-frames-$case.XXXX")
    state_for "$case" >"$dir/state.ron"
    echo "load before $case: $(cat /proc/loadavg)" >&2
    TESSERA_STATE_FILE="$dir/state.ron" TESSERA_FRAME_LOG="$dir/frames.log" DISPLAY="$display" \
        "$editor" . >"$dir/editor.out" 2>&1 &
    pid=$!
    sleep $((seconds / 2))
    # Who runs at which priority mid-game: the UI thread at the editor's
    # nice, the AI's workers 10 below it.
    ps -L -o tid=,ni=,pcpu=,comm= -p "$pid" >"$dir/threads.txt" || true
    sleep $((seconds - seconds / 2))
    # CPU time (ms) of the UI thread and of the renderer's threads over the
    # whole run: the frame's own cost, whatever the load.
    cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ s += $14 + $15 } END { printf "%.0f", s * 1000 / hz }' "$@"; }
    ui_cpu=$(cpu_ms "/proc/$pid/task/$pid/stat" 2>/dev/null || echo 0)
    gl_cpu=$(grep -l llvmpipe /proc/"$pid"/task/*/comm 2>/dev/null | sed 's/comm$/stat/' | xargs -r cat | cpu_ms)
    # The measured frames end here: a screenshot stalls the X server (and
    # so the editor's next frame) for 50-90 ms on this machine, so it is
    # taken after the log is cut, never inside the measured window.
    cp "$dir/frames.log" "$dir/frames.measured"
    if [ "${KEEP:-0}" = 1 ]; then
        DISPLAY="$display" import -window root "$dir/screen.png" 2>/dev/null || true
    fi
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    echo "load after $case: $(cat /proc/loadavg)" >&2
    frames=$(($(wc -l <"$dir/frames.measured") - 1))
    summary=$(summarise "$dir/frames.measured")
    echo "$case: the window's opening (frames in the first ${WARMUP_MS} ms, left out): longest gap $(cat "$dir/frames.measured.opening") ms" >&2
    printf '%-7s | %s | %s\n' "$case" "$summary" \
        "$(awk -v f="$frames" -v u="$ui_cpu" -v g="${gl_cpu:-0}" 'BEGIN { printf "%d %.1f %.1f", f, u / f, g / f }')"
    if [ "${KEEP:-0}" = 1 ]; then echo "kept $dir" >&2; else rm -r "$dir"; fi
done
