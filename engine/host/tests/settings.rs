//! The host's one typed settings reader: ranges, defaults, finite numbers,
//! strict switches, capped lists, refusals at the value's line with the
//! same words for every game; what a game derives is read once per
//! version; a hook past its budget stops its version.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tessera_host::{Script, ScriptError, ScriptLimits};

fn load(source: &str) -> Script {
    Script::load(
        Path::new("scripts/test.lua"),
        source,
        None,
        ScriptLimits::default(),
    )
    .expect("loads")
}

#[test]
fn numbers_are_read_with_range_and_default_and_refused_at_their_line() {
    let script =
        load("return {\n  slots = 12,\n  speed = 2.5,\n  ai = {\n    beam = 0/0,\n  },\n}\n");
    let error = script
        .setting::<i64>(&["slots"])
        .within(1..=8)
        .or(3)
        .expect_err("12 is out of range");
    assert_eq!(
        error.to_string(),
        "scripts/test.lua:2: `slots` must be 1 to 8, not 12"
    );
    assert_eq!(
        script.setting::<f64>(&["speed"]).within(0.0..=10.0).or(1.0),
        Ok(2.5)
    );
    assert_eq!(script.setting::<f64>(&["missing"]).or(7.0), Ok(7.0));
    let nan = script
        .setting::<f64>(&["ai", "beam"])
        .or(1.0)
        .expect_err("nan means nothing");
    assert_eq!(
        nan.to_string(),
        "scripts/test.lua:5: `ai.beam` must be a finite number, found nan (0/0)"
    );
    let fraction = script
        .setting::<i64>(&["speed"])
        .or(1)
        .expect_err("2.5 is not whole");
    assert!(
        fraction
            .to_string()
            .ends_with("`speed` must be a whole number, found 2.5"),
        "{fraction}"
    );
}

#[test]
fn a_switch_is_true_or_false_not_anything_truthy() {
    let script = load("return {\n  hold = \"yes\",\n  rotation = true,\n}\n");
    assert_eq!(script.setting::<bool>(&["rotation"]).or(false), Ok(true));
    let error = script
        .setting::<bool>(&["hold"])
        .or(false)
        .expect_err("a string is no switch");
    assert_eq!(
        error.to_string(),
        "scripts/test.lua:2: `hold` must be a boolean (true or false), found a string"
    );
}

#[test]
fn lists_are_capped_and_have_no_holes() {
    let script = load(
        "return {\n  big = (function() local t = {} for i = 1, 100000 do t[i] = 1 end return t end)(),\n  holey = { 1, nil, 3 },\n  good = { 1, 2, 3 },\n  keyed = { 1, x = 2 },\n}\n",
    );
    let started = Instant::now();
    let big = script
        .list::<f64>(&["big"])
        .most(100)
        .optional()
        .expect_err("over the cap");
    assert!(
        big.to_string()
            .contains("`big` holds over 100 entries, at most 100"),
        "{big}"
    );
    assert!(
        started.elapsed() < Duration::from_millis(200),
        "the count stops at the cap"
    );
    let holey = script.list::<f64>(&["holey"]).optional().expect_err("hole");
    assert!(holey.to_string().contains("has a hole"), "{holey}");
    let keyed = script.list::<f64>(&["keyed"]).optional().expect_err("key");
    assert!(keyed.to_string().contains("it has a key `x`"), "{keyed}");
    assert_eq!(
        script
            .list::<i64>(&["good"])
            .least(3)
            .most(3)
            .within(0..=9)
            .optional(),
        Ok(Some(vec![1, 2, 3]))
    );
    let short = script
        .list::<i64>(&["good"])
        .least(4)
        .optional()
        .expect_err("too short");
    assert!(
        short
            .to_string()
            .contains("holds 3 entries, at least 4 expected"),
        "{short}"
    );
}

#[test]
fn named_tables_rows_and_allowed_keys_are_read_with_the_same_words() {
    let script = load(
        "return {\n  ai = {\n    rows = {\n      { name = \"A\", weights = { holes = -1, height = 0.5 } },\n      { name = \"B\", weigths = {} },\n      7,\n    },\n    weights = { holes = 1e999 },\n    keyed = { [1] = 2 },\n  },\n}\n",
    );
    // A table of named numbers, in name order, each range-checked.
    assert_eq!(
        script
            .named::<f64>(&["ai", "rows", "1", "weights"])
            .within(-2.0..=2.0)
            .optional(),
        Ok(Some(vec![
            ("height".to_string(), 0.5),
            ("holes".to_string(), -1.0)
        ]))
    );
    assert_eq!(script.named::<f64>(&["ai", "nothing"]).optional(), Ok(None));
    let infinite = script
        .named::<f64>(&["ai", "weights"])
        .optional()
        .expect_err("1e999 is no number");
    assert_eq!(
        infinite.to_string(),
        "scripts/test.lua:8: `ai.weights.holes` must be a finite number, found inf"
    );
    let keyed = script
        .named::<i64>(&["ai", "keyed"])
        .optional()
        .expect_err("a number key");
    assert!(keyed.to_string().contains("it has a key 1"), "{keyed}");
    let crowded = script
        .named::<f64>(&["ai", "rows", "1", "weights"])
        .most(1)
        .optional()
        .expect_err("two names over a cap of one");
    assert!(
        crowded
            .to_string()
            .contains("holds over 1 entries, at most 1"),
        "{crowded}"
    );
    // A typo'd key is refused at its own line, naming the nearest allowed
    // key; a key near none of them, naming them all.
    assert_eq!(
        script.only_keys(&["ai", "rows", "1"], &["name", "weights"]),
        Ok(())
    );
    let typo = script
        .only_keys(&["ai", "rows", "2"], &["name", "weights"])
        .expect_err("weigths is a typo");
    assert_eq!(
        typo.to_string(),
        "scripts/test.lua:5: `ai.rows[2]` has no setting `weigths`; did you mean `weights`?"
    );
    let far = script
        .only_keys(&["ai", "rows", "2"], &["name", "order"])
        .expect_err("weigths is near neither");
    assert_eq!(
        far.to_string(),
        "scripts/test.lua:5: `ai.rows[2]` has no setting `weigths` (settings: name, order)"
    );
    assert_eq!(script.only_keys(&["missing"], &["x"]), Ok(()));
    // Rows of tables: a row that is not a table is named.
    let row = script.rows(&["ai", "rows"], 8).expect_err("row 3 is 7");
    assert!(
        row.to_string()
            .contains("`ai.rows[3]` must be a table, found 7"),
        "{row}"
    );
    let capped = script
        .rows(&["ai", "rows"], 2)
        .expect_err("three rows over two");
    assert!(capped.to_string().contains("at most 2"), "{capped}");
    assert_eq!(script.rows(&["ai", "none"], 8), Ok(None));
}

#[test]
fn what_a_game_derives_is_read_once_per_version() {
    static READS: AtomicUsize = AtomicUsize::new(0);
    fn read(script: &Script) -> Result<Vec<i64>, ScriptError> {
        READS.fetch_add(1, Ordering::Relaxed);
        script.list::<i64>(&["levels"]).or(Vec::new())
    }
    let script = load("return { levels = { 1, 2, 3 } }");
    for _ in 0..5 {
        assert_eq!(*script.cached(read).expect("reads"), vec![1, 2, 3]);
    }
    assert_eq!(READS.load(Ordering::Relaxed), 1);
    // A new version reads again.
    let reloaded = load("return { levels = { 4 } }");
    assert_eq!(*reloaded.cached(read).expect("reads"), vec![4]);
    assert_eq!(READS.load(Ordering::Relaxed), 2);
}

#[test]
fn a_hook_result_of_the_wrong_type_is_refused_at_the_hook() {
    let script = load("return {\n  won = function()\n    return {}\n  end,\n}\n");
    let error = script
        .call_typed::<bool>("won", ())
        .expect_err("a table is not a boolean");
    assert_eq!(
        error.to_string(),
        "scripts/test.lua:2: `won` returned a table, not a boolean (true or false)"
    );
}

#[test]
fn a_hook_past_its_budget_stops_its_version_at_once() {
    let script = load(
        "return {\n  score = function()\n    while true do end\n  end,\n  ok = function() return 1 end,\n}\n",
    );
    assert!(script.stopped().is_none());
    let first = script.call::<f64>("score", ()).expect_err("loops");
    assert!(
        first
            .to_string()
            .contains("`score` stopped: ran past its time budget"),
        "{first}"
    );
    assert_eq!(script.stopped().as_ref(), Some(&first));
    // Later calls, of any hook, fail at once with the same error.
    let started = Instant::now();
    for _ in 0..100 {
        assert_eq!(script.call::<f64>("ok", ()), Err(first.clone()));
    }
    assert!(started.elapsed() < Duration::from_millis(100));
}
