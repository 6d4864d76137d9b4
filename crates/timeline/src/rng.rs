//! Reproducible draws: ChaCha8 seeded by the game's seed, one stream per position in the
//! game's history, with a shuffle written here so that no library upgrade can change a
//! replay.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

pub struct Draw(ChaCha8Rng);

impl Draw {
    pub fn new(seed: u64, position: u64) -> Draw {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(position);
        Draw(rng)
    }

    /// Uniform in `0..n` (rejection sampling, no modulo bias).
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.0.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// `n` distinct items of `from`, in random order.
    pub fn pick<T: Clone>(&mut self, from: &[T], n: usize) -> Vec<T> {
        let mut all = from.to_vec();
        self.shuffle(&mut all);
        all.truncate(n);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_and_position_draw_the_same() {
        let cards: Vec<u8> = (1..=18).collect();
        assert_eq!(
            Draw::new(7, 3).pick(&cards, 6),
            Draw::new(7, 3).pick(&cards, 6)
        );
        assert_ne!(
            Draw::new(7, 3).pick(&cards, 6),
            Draw::new(7, 4).pick(&cards, 6)
        );
    }

    #[test]
    fn shuffles_are_roughly_uniform() {
        let mut counts = [0u32; 4];
        let mut draw = Draw::new(1, 0);
        for _ in 0..4000 {
            let mut v = [0, 1, 2, 3];
            draw.shuffle(&mut v);
            counts[v[0]] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }
}
