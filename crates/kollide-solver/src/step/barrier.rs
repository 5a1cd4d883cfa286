//! The barrier the threads of a parallel solve meet at between waves and phases.
//!
//! A solve step on two threads meets at a barrier a few hundred times (after every wave of
//! every pass), each wait a few microseconds of work apart, so the barrier spins: parking a
//! thread and waking it through the operating system costs more than the work between two
//! waits. When a thread spins long, because its partner was descheduled (the machine is
//! shared), it yields its core instead of burning it.
//!
//! It is a counting barrier with a generation number (a "sense-reversing" barrier, Mellor-Crummey
//! and Scott, "Algorithms for scalable synchronization on shared-memory multiprocessors", 1991):
//! the last thread to arrive resets the count and starts the next generation, which releases the
//! others. Its release and acquire orderings make every write before a wait visible to every
//! thread after it.

use core::sync::atomic::AtomicUsize;
use core::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};

/// Spins before a waiting thread starts yielding its core.
const SPINS: u32 = 1 << 7;

/// Something threads wait at until all have arrived.
pub(crate) trait Wait {
    /// Returns once every thread has called `wait` as often as this one.
    fn wait(&self);
}

/// The barrier of one thread alone: returns at once.
pub(crate) struct Alone;

impl Wait for Alone {
    #[inline(always)]
    fn wait(&self) {}
}

/// A spin-then-yield barrier for a fixed number of threads.
#[derive(Debug)]
pub(crate) struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    /// A barrier for `threads` threads.
    pub(crate) fn new(threads: usize) -> Self {
        Self { threads, arrived: AtomicUsize::new(0), generation: AtomicUsize::new(0) }
    }
}

impl Wait for SpinBarrier {
    fn wait(&self) {
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.threads {
            // The others cannot arrive again before they see the new generation, which is
            // published after the count is reset.
            self.arrived.store(0, Relaxed);
            self.generation.store(generation.wrapping_add(1), Release);
            return;
        }
        let mut spins = 0;
        while self.generation.load(Acquire) == generation {
            if spins < SPINS {
                spins += 1;
                core::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::AtomicU64;

    /// Threads that add to a counter between waits each see every addition of the round
    /// before: the barrier orders the rounds.
    #[test]
    fn every_thread_sees_the_whole_round_before_it() {
        let (threads, rounds) = (3, 2_000);
        let barrier = SpinBarrier::new(threads);
        let sum = AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    for round in 0..rounds {
                        assert_eq!(sum.load(Relaxed), (round * threads) as u64);
                        barrier.wait();
                        sum.fetch_add(1, Relaxed);
                        barrier.wait();
                    }
                });
            }
        });
        assert_eq!(sum.load(Relaxed), (rounds * threads) as u64);
    }
}
