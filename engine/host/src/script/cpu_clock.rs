//! The CPU time the calling thread has used: what a script's budget
//! measures, so a script gets the same work done before its budget runs
//! out on an idle machine and on one where five builds share two cores
//! (a wall-clock budget stretched nothing and stopped scripts early under
//! load, so the same file passed or failed by the machine's load).

/// Nanoseconds of CPU time (user and system) the calling thread has used,
/// or `None` where the platform does not say (then budgets fall back to
/// the wall clock).
pub(super) fn thread_cpu_nanos() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        let mut now = linux::Timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes one `timespec` into `now`, which
        // lives for the call; the calling thread's CPU clock always exists.
        let status = unsafe { linux::clock_gettime(linux::CLOCK_THREAD_CPUTIME_ID, &mut now) };
        if status != 0 {
            return None;
        }
        let seconds = u64::try_from(now.tv_sec).ok()?;
        let nanos = u64::try_from(now.tv_nsec).ok()?;
        seconds.checked_mul(1_000_000_000)?.checked_add(nanos)
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The one C library call (declared here, as `worker.rs` declares its
/// priority calls, rather than adding the `libc` crate to the host).
#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::{c_int, c_long};

    /// The calling thread's CPU-time clock.
    pub const CLOCK_THREAD_CPUTIME_ID: c_int = 3;

    /// `struct timespec` (`time_t` and `long` are both the platform's long
    /// on Linux).
    #[repr(C)]
    pub struct Timespec {
        pub tv_sec: c_long,
        pub tv_nsec: c_long,
    }

    unsafe extern "C" {
        pub fn clock_gettime(clock: c_int, now: *mut Timespec) -> c_int;
    }
}

#[cfg(test)]
mod tests {
    use super::thread_cpu_nanos;

    #[test]
    fn a_sleeping_thread_uses_no_cpu_and_a_busy_one_does() {
        let before = thread_cpu_nanos().expect("Linux has a thread CPU clock");
        std::thread::sleep(std::time::Duration::from_millis(50));
        let slept = thread_cpu_nanos().expect("clock") - before;
        assert!(slept < 20_000_000, "sleeping used {slept} ns of CPU");
        let start = std::time::Instant::now();
        let mut x = 0u64;
        while start.elapsed() < std::time::Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        let busy = thread_cpu_nanos().expect("clock") - before - slept;
        assert!(busy > 0, "a busy loop used no CPU time");
    }
}
