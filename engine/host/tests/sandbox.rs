//! The script sandbox: escapes refused, runaway code stopped (also inside
//! `pcall`), memory capped, errors located at `path:line`, tables validated.

use std::path::Path;
use std::time::{Duration, Instant};

use tessera_host::script::{FieldKind, FieldSpec, ScriptErrorKind, nearest_key};
use tessera_host::{Script, ScriptError, ScriptLimits, ScriptSchema};

fn load(source: &str) -> Result<Script, ScriptError> {
    Script::load(
        Path::new("scripts/test.lua"),
        source,
        None,
        ScriptLimits::default(),
    )
}

fn load_err(source: &str) -> ScriptError {
    load(source).expect_err("the script must be refused")
}

#[test]
fn every_escape_hatch_is_absent() {
    for global in [
        "io",
        "os",
        "require",
        "load",
        "loadstring",
        "dofile",
        "loadfile",
        "debug",
        "getfenv",
        "setfenv",
    ] {
        let script = load(&format!("return {{ present = {global} ~= nil }}")).unwrap();
        assert_eq!(
            script.value::<bool>("present").unwrap(),
            Some(false),
            "`{global}` must be absent"
        );
    }
}

#[test]
fn calling_an_escape_is_a_located_runtime_error() {
    let err = load_err("local x = 1\nreturn io.open('/etc/passwd')");
    assert_eq!(err.kind, ScriptErrorKind::Runtime);
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.to_string().starts_with("scripts/test.lua:2: "), "{err}");

    let err = load_err("return require('os')");
    assert_eq!(err.line, Some(1), "{err}");
    let err = load_err("\n\nreturn loadstring('return 1')()");
    assert_eq!(err.line, Some(3), "{err}");
}

#[test]
fn collectgarbage_offers_count_only() {
    let script = load("return { kb = collectgarbage('count') }").unwrap();
    let kb: f64 = script.value("kb").unwrap().unwrap();
    assert!(kb > 0.0 && kb < 64.0 * 1024.0, "{kb}");
    let err = load_err("collectgarbage('collect')\nreturn {}");
    assert_eq!(err.line, Some(1), "{err}");
    assert!(err.message.contains("only \"count\""), "{err}");
}

#[test]
fn allowed_libraries_work_and_are_read_only() {
    let script =
        load("return { s = string.upper('ab') .. table.concat({1, 2}, ',') .. math.floor(2.5) }")
            .unwrap();
    assert_eq!(
        script.value::<String>("s").unwrap().as_deref(),
        Some("AB1,22")
    );
    let err = load_err("math.floor = nil\nreturn {}");
    assert_eq!(err.line, Some(1), "{err}");
    assert!(err.message.contains("readonly"), "{err}");
}

/// The most wall time a stopped script may take: its CPU budget decides,
/// and on a loaded machine the wall-clock backstop (4 x the budget: 1 s
/// for a call, 2 s for a top level) ends it anyway; a little more for the
/// test's own load and teardown.
const STOPS_WITHIN: Duration = Duration::from_millis(2500);

/// Runs `f` and returns its result with the time it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let value = f();
    (value, start.elapsed())
}

#[test]
fn endless_loop_at_top_level_stops_within_its_budget() {
    let (err, took) = timed(|| load_err("local n = 0\nwhile true do n = n + 1 end\nreturn {}"));
    assert_eq!(err.kind, ScriptErrorKind::Budget, "{err}");
    assert!(err.message.contains("time budget"), "{err}");
    assert_eq!(err.line, Some(2), "the error points into the loop: {err}");
    assert!(took < STOPS_WITHIN, "took {took:?}");
}

#[test]
fn endless_loop_in_a_hook_stops_within_its_budget() {
    let script = load("return {\n  score = function()\n    while true do end\n  end,\n}").unwrap();
    let (result, took) = timed(|| script.call::<i64>("score", ()));
    let err = result.expect_err("the loop must be stopped");
    assert_eq!(err.kind, ScriptErrorKind::Budget, "{err}");
    assert_eq!(err.line, Some(3), "{err}");
    assert!(took < STOPS_WITHIN, "took {took:?}");
    // The script stays usable after being stopped.
    let ok = load("return { score = function() return 5 end }").unwrap();
    assert_eq!(ok.call::<i64>("score", ()).unwrap(), 5);
}

#[test]
fn endless_loop_inside_pcall_is_still_stopped() {
    let source = "return {\n  score = function()\n    while true do\n      pcall(function() while true do end end)\n    end\n  end,\n}";
    let script = load(source).unwrap();
    let (result, took) = timed(|| script.call::<i64>("score", ()));
    let err = result.expect_err("pcall must not swallow the budget");
    assert_eq!(err.kind, ScriptErrorKind::Budget, "{err}");
    assert!(took < STOPS_WITHIN, "took {took:?}");

    // Even a script that catches the error and returns normally is reported.
    let sneaky =
        "return { score = function()\n  pcall(function() while true do end end)\n  return 1\nend }";
    let script = load(sneaky).unwrap();
    let err = script
        .call::<i64>("score", ())
        .expect_err("over budget even if caught");
    assert_eq!(err.kind, ScriptErrorKind::Budget, "{err}");

    let (err, took) =
        timed(|| load_err("while true do pcall(function() while true do end end) end"));
    assert_eq!(err.kind, ScriptErrorKind::Budget, "{err}");
    assert!(took < STOPS_WITHIN, "took {took:?}");
}

#[test]
fn memory_bombs_stop_with_a_memory_error() {
    for source in [
        "return { s = string.rep('x', 2^40) }",
        "return { s = string.rep('x', 2^28) }",
        "local t = {}\nlocal i = 0\nwhile true do i = i + 1; t[i] = {i, i, i} end",
        "local s = 'xxxxxxxx'\nwhile true do s = s .. s end",
    ] {
        // A generous budget: the memory cap, not the clock, must stop these
        // (on a loaded machine 500 ms may not reach 64 MiB).
        let limits = ScriptLimits {
            load_budget: Duration::from_secs(10),
            ..ScriptLimits::default()
        };
        let err = Script::load(Path::new("scripts/test.lua"), source, None, limits)
            .map(|s| s.used_memory())
            .expect_err(source);
        assert_eq!(err.kind, ScriptErrorKind::Memory, "{source}: {err}");
        assert!(err.message.starts_with("out of memory"), "{err}");
    }
}

#[test]
fn memory_cap_is_configurable_and_the_vm_survives_a_bomb() {
    let limits = ScriptLimits {
        memory_bytes: 4 * 1024 * 1024,
        ..ScriptLimits::default()
    };
    let source =
        "return { grow = function(n) local t = {} for i = 1, n do t[i] = i end return #t end }";
    let script = Script::load(Path::new("m.lua"), source, None, limits).unwrap();
    assert_eq!(script.call::<i64>("grow", 1000).unwrap(), 1000);
    let err = script.call::<i64>("grow", 10_000_000).unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Memory, "{err}");
    assert_eq!(
        script.call::<i64>("grow", 1000).unwrap(),
        1000,
        "usable after the bomb"
    );
    assert!(script.used_memory() < limits.memory_bytes);
}

#[test]
fn syntax_and_runtime_errors_carry_path_and_line() {
    let err = load_err("return {\n  x = 1,\n  y = = 2,\n}");
    assert_eq!(err.kind, ScriptErrorKind::Syntax);
    assert_eq!(err.line, Some(3), "{err}");
    assert!(err.to_string().starts_with("scripts/test.lua:3: "), "{err}");

    let script = load("return {\n  score = function(n)\n    return n + nil\n  end,\n}").unwrap();
    let err = script.call::<i64>("score", 1).unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Runtime);
    assert_eq!(err.line, Some(3), "{err}");
}

#[test]
fn the_returned_table_is_validated_against_the_schema() {
    let schema = ScriptSchema {
        game: "demo",
        fields: vec![
            FieldSpec::required("score", FieldKind::Function, "points for a clear"),
            FieldSpec::optional("speed", FieldKind::Number, "ticks per second"),
            FieldSpec::optional("slots", FieldKind::Integer, "preview slots"),
        ],
    };
    let path = Path::new("scripts/demo.lua");
    let check =
        |src: &str| Script::load(path, src, Some(&schema), ScriptLimits::default()).map(|_| ());

    let err = check("return { speed = 2 }").unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Schema);
    assert!(err.message.contains("missing `score`"), "{err}");
    let err = check("return { score = function() end, speed = 'fast' }").unwrap_err();
    assert_eq!(err.message, "`speed` must be a number, found a string");
    let err = check("return { score = function() end, slots = 2.5 }").unwrap_err();
    assert_eq!(err.message, "`slots` must be an integer, found 2.5");
    let err = check("return 42").unwrap_err();
    assert!(
        err.message.contains("must end by returning a table"),
        "{err}"
    );
    check("return { score = function() end, speed = 2.5, slots = 3 }").unwrap();
}

#[test]
fn a_key_the_schema_does_not_know_is_refused_at_its_line_with_the_nearest_key() {
    let schema = ScriptSchema {
        game: "demo",
        fields: vec![
            FieldSpec::required("score", FieldKind::Function, "points for a clear"),
            FieldSpec::optional("slots", FieldKind::Integer, "preview slots").within(1.0, 8.0),
            FieldSpec::optional("on_settle", FieldKind::Function, "the board settled"),
        ],
    };
    let path = Path::new("scripts/demo.lua");
    let check = |src: &str| {
        Script::load(path, src, Some(&schema), ScriptLimits::default())
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let score = "  score = function(cells) return cells end,\n";

    // A misspelt setting: refused at its line, not ignored for a default.
    assert_eq!(
        check(&format!("return {{\n{score}  slotz = 3,\n}}\n")),
        Err("scripts/demo.lua:3: the script has no setting `slotz`; did you mean `slots`?".into())
    );
    // A misspelt hook counts too (swapped letters are one edit).
    assert_eq!(
        check(&format!(
            "return {{\n{score}  on_setlte = function() end,\n}}\n"
        )),
        Err(
            "scripts/demo.lua:3: the script has no setting `on_setlte`; did you mean `on_settle`?"
                .into()
        )
    );
    // A misspelt required hook is named as the typo it is, not `missing`.
    assert_eq!(
        check("return {\n  scroe = function() return 1 end,\n}\n"),
        Err("scripts/demo.lua:2: the script has no setting `scroe`; did you mean `score`?".into())
    );
    // Near nothing: every key the table may hold is listed.
    assert_eq!(
        check(&format!("return {{\n{score}  zzz = 1,\n}}\n")),
        Err("scripts/demo.lua:3: the script has no setting `zzz` (settings: score, slots, on_settle, game)".into())
    );
    // Of several typos, the one written first, whatever `pairs` yields.
    let several: String = (0..12).map(|i| format!("  typo{i} = {i},\n")).collect();
    let err = check(&format!("return {{\n{score}  slotz = 1,\n{several}}}\n")).unwrap_err();
    assert!(err.starts_with("scripts/demo.lua:3: "), "{err}");
    // A positional entry at the top level is a key too.
    assert_eq!(
        check(&format!("return {{\n{score}  42,\n}}\n")),
        Err("scripts/demo.lua:3: the script's table has a key 1; its settings are named: score, slots, on_settle, game".into())
    );
    // A huge key is shown cut.
    let long = "k".repeat(100_000);
    let err = check(&format!("return {{\n{score}  {long} = 1,\n}}\n")).unwrap_err();
    assert!(err.len() < 300, "{} bytes", err.len());
    // The host's own `game` key and every schema key pass.
    check(&format!(
        "return {{\n  game = \"demo\",\n{score}  slots = 3,\n  on_settle = function() end,\n}}\n"
    ))
    .unwrap();
}

#[test]
fn the_nearest_key_is_a_close_misspelling_or_none() {
    let known = ["slots", "score", "rotation", "ticks_per_second"];
    assert_eq!(nearest_key("slotz", &known), Some("slots"));
    assert_eq!(nearest_key("slost", &known), Some("slots"));
    assert_eq!(nearest_key("Slots", &known), Some("slots"));
    assert_eq!(nearest_key("rotaton", &known), Some("rotation"));
    assert_eq!(
        nearest_key("tick_per_secnd", &known),
        Some("ticks_per_second")
    );
    assert_eq!(nearest_key("zzz", &known), None);
    assert_eq!(nearest_key("", &known), None);
    assert_eq!(nearest_key(&"s".repeat(1_000_000), &known), None);
}

#[test]
fn print_goes_to_the_host_not_stdout() {
    let script = load("print('hello', 3)\nreturn { f = function() print('again') end }").unwrap();
    assert_eq!(script.take_printed(), vec!["hello\t3"]);
    script.call::<()>("f", ()).unwrap();
    assert_eq!(script.take_printed(), vec!["again"]);
    assert!(script.take_printed().is_empty());
}

#[test]
fn a_metatable_read_runs_under_the_budget() {
    let script = load(
        "return {\n  t = setmetatable({}, { __index = function()\n    while true do end\n  end }),\n}\n",
    )
    .unwrap();
    let started = Instant::now();
    let err = script
        .guarded(|| {
            let t: tessera_host::mlua::Table = script.exports().raw_get("t").unwrap();
            t.get::<tessera_host::mlua::Value>("anything")
                .map(|_| ())
                .map_err(|e| {
                    ScriptError::new(script.path(), ScriptErrorKind::Runtime, e.to_string())
                })
        })
        .unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Budget, "{err}");
    assert_eq!(err.line, Some(3), "{err}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn printing_is_bounded_in_lines_and_bytes() {
    let script = load(
        "return { spam = function()\n  for i = 1, 1500 do print(string.rep('z', 5000)) end\nend }\n",
    )
    .unwrap();
    script.call::<()>("spam", ()).unwrap();
    let lines = script.take_printed();
    assert_eq!(lines.len(), 1001);
    assert!(lines[0].len() < 1100, "{}", lines[0].len());
    assert!(
        lines[0].ends_with("(4000 more bytes not shown)"),
        "{}",
        &lines[0][990..]
    );
    assert_eq!(
        lines[1000],
        "(500 more printed lines dropped: at most 1000 are kept)"
    );
}

#[test]
fn error_values_are_rendered_with_their_line() {
    let err = load_err("local x = 1\nerror({ code = 42, why = 'no' })\n");
    assert_eq!(err.line, Some(2));
    assert_eq!(err.message, "error value {code = 42, why = \"no\"}");
    let err = load_err("\n\nerror(nil)\n");
    assert_eq!(err.line, Some(3));
    assert_eq!(err.message, "error(nil) raised, with no message");
}

#[test]
fn a_bad_field_is_located_in_the_returned_table() {
    let script = load("return {\n  speed = 2,\n  slots = 0,\n}\n").unwrap();
    let err = script.field_error(&["slots"], "`slots` must be 1 to 8, not 0");
    assert_eq!(
        err.to_string(),
        "scripts/test.lua:3: `slots` must be 1 to 8, not 0"
    );
    let schema = ScriptSchema {
        game: "demo",
        fields: vec![
            FieldSpec::optional("speed", FieldKind::Number, "speed"),
            FieldSpec::optional("slots", FieldKind::Integer, "slots").within(1.0, 8.0),
        ],
    };
    let err = script.validate(&schema).unwrap_err();
    assert_eq!(
        err.to_string(),
        "scripts/test.lua:3: `slots` must be 1 to 8, not 0"
    );
}

#[test]
fn an_oversized_source_is_refused_before_compiling() {
    let big = format!("return {{ s = \"{}\" }}", "x".repeat(3 * 1024 * 1024));
    let err = load_err(&big);
    assert_eq!(err.kind, ScriptErrorKind::Memory);
    assert!(err.message.contains("over the 2 MiB limit"), "{err}");
}
