//! Reading numbers out of the fuzzer's bytes: raw (any bit pattern, NaN and infinities
//! included) or folded into a range, so that both validation and the queries behind it are hit.

/// A cursor over the fuzzer's bytes.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// The next byte (0 when exhausted).
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    /// A raw f64 from eight bytes (any bit pattern).
    pub fn raw(&mut self) -> f64 {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.byte();
        }
        f64::from_le_bytes(b)
    }

    /// Mostly a "reasonable" number in [-lim, lim] (from two bytes), sometimes a raw one.
    pub fn num(&mut self, lim: f64) -> f64 {
        match self.byte() {
            0..=7 => self.raw(),
            8..=15 => {
                10f64.powi(self.byte() as i32 % 40 - 20)
                    * if self.byte() & 1 == 0 { 1.0 } else { -1.0 }
            }
            _ => {
                let v = u16::from_le_bytes([self.byte(), self.byte()]) as f64 / 65535.0;
                (2.0 * v - 1.0) * lim
            }
        }
    }
}
