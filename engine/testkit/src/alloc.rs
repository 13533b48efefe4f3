//! An allocation counter for "this hot path allocates nothing" tests.
//!
//! A test binary installs it with
//! `#[global_allocator] static GLOBAL: CountingAlloc = CountingAlloc;`
//! (one per binary, so keep such tests in a binary of their own) and asks
//! [`allocations_during`] how many allocations a closure made.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    // Per thread, so tests running in parallel in the same binary do not
    // see each other's allocations. A const-initialised `Cell<usize>` has
    // no destructor and never allocates, so the allocator may touch it.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    // `try_with` fails only while the thread is being torn down; an
    // allocation then is not one a test can be asking about.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

fn allocations_so_far() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// The system allocator, counting allocations and reallocations.
pub struct CountingAlloc;

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter is a thread-local `Cell` and never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations the calling thread made while `f` ran. Work `f` hands to
/// other threads is not counted.
pub fn allocations_during(f: impl FnOnce()) -> usize {
    let before = allocations_so_far();
    f();
    allocations_so_far() - before
}
