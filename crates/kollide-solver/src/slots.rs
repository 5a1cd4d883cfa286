//! Where the contact solver keeps the bodies while it runs: [`Slots`].
//!
//! On one thread the slots are a plain slice. When several threads solve one step (see
//! `step/solve.rs`), they share the slots as [`SharedSlots`]: rows of atomics, loaded and stored
//! with relaxed ordering. No two threads touch the same body between two barriers (the
//! constraints of a wave share no dynamic body, and each body is integrated by one thread), and
//! the barriers order everything else, so relaxed atomics cost no more than plain loads and
//! stores on x86 and ARM while keeping the sharing safe Rust (the workspace forbids `unsafe`).
//! The one slot threads do write at once is the spare slot, which takes the writes of lanes
//! that must not write and is never read.

use crate::lane::Lane;
use crate::lane_dim::DimLanes;

/// The bodies' slots as the solver reads and writes them, by slot index `i` and row `r`.
pub(crate) trait Slots<L: DimLanes<D>, const D: usize> {
    /// Row `r` of slot `i`.
    fn row(&self, i: u32, r: usize) -> L::Row;
    /// Overwrites row `r` of slot `i`.
    fn set_row(&mut self, i: u32, r: usize, row: L::Row);

    /// Slot `i`.
    #[inline(always)]
    fn slot(&self, i: u32) -> L::Slot {
        L::slot_from_rows(|r| self.row(i, r))
    }
    /// Overwrites slot `i`.
    #[inline(always)]
    fn set_slot(&mut self, i: u32, slot: &L::Slot) {
        for r in 0..L::SLOT_ROWS {
            self.set_row(i, r, L::slot_row(slot, r));
        }
    }
}

impl<L: DimLanes<D>, const D: usize> Slots<L, D> for [L::Slot] {
    #[inline(always)]
    fn row(&self, i: u32, r: usize) -> L::Row {
        L::slot_row(&self[i as usize], r)
    }
    #[inline(always)]
    fn set_row(&mut self, i: u32, r: usize, row: L::Row) {
        L::set_slot_row(&mut self[i as usize], r, row);
    }
    #[inline(always)]
    fn slot(&self, i: u32) -> L::Slot {
        self[i as usize]
    }
    #[inline(always)]
    fn set_slot(&mut self, i: u32, slot: &L::Slot) {
        self[i as usize] = *slot;
    }
}

/// The storage of [`SharedSlots`], reused from step to step (a clone starts empty: it holds
/// nothing between steps).
#[derive(Debug)]
pub(crate) struct SharedRows<L: Lane>(Vec<L::SharedRow>);

impl<L: Lane> Default for SharedRows<L> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<L: Lane> Clone for SharedRows<L> {
    fn clone(&self) -> Self {
        Self::default()
    }
}

/// Slots that several threads share: [`DimLanes::SLOT_ROWS`] atomic rows per slot.
#[derive(Debug)]
pub(crate) struct SharedSlots<'a, L: DimLanes<D>, const D: usize> {
    rows: &'a [L::SharedRow],
}

impl<L: DimLanes<D>, const D: usize> Clone for SharedSlots<'_, L, D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: DimLanes<D>, const D: usize> Copy for SharedSlots<'_, L, D> {}

impl<'a, L: DimLanes<D>, const D: usize> SharedSlots<'a, L, D> {
    /// Fills `rows` with the slots and shares them.
    pub(crate) fn new(slots: &[L::Slot], rows: &'a mut SharedRows<L>) -> Self {
        let rows = &mut rows.0;
        rows.clear();
        for slot in slots {
            rows.extend((0..L::SLOT_ROWS).map(|r| L::share_row(L::slot_row(slot, r))));
        }
        Self { rows }
    }

    /// Copies the shared slots back into `slots`.
    pub(crate) fn copy_to(self, slots: &mut [L::Slot]) {
        for (i, slot) in slots.iter_mut().enumerate() {
            *slot = Slots::<L, D>::slot(&self, i as u32);
        }
    }
}

impl<L: DimLanes<D>, const D: usize> Slots<L, D> for SharedSlots<'_, L, D> {
    #[inline(always)]
    fn row(&self, i: u32, r: usize) -> L::Row {
        L::load_shared(&self.rows[i as usize * L::SLOT_ROWS + r])
    }
    #[inline(always)]
    fn set_row(&mut self, i: u32, r: usize, row: L::Row) {
        L::store_shared(&self.rows[i as usize * L::SLOT_ROWS + r], row);
    }
}
