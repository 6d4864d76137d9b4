//! Reproducible draws: ChaCha8 seeded by the game's seed, one stream per position in the
//! game's history, with `rand`'s own sampling and shuffling. Every outcome is recorded in
//! the events it causes, so a replay never draws again and no library upgrade can change
//! a game already played.

use rand::seq::{SliceRandom, index};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub struct Draw(ChaCha8Rng);

impl Draw {
    pub fn new(seed: u64, position: u64) -> Draw {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(position);
        Draw(rng)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0.random_range(0..n)
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        items.shuffle(&mut self.0);
    }

    /// `n` distinct items of `from` (all of them if it has fewer), in random order.
    pub fn pick<T: Clone>(&mut self, from: &[T], n: usize) -> Vec<T> {
        index::sample(&mut self.0, from.len(), n.min(from.len()))
            .into_iter()
            .map(|i| from[i].clone())
            .collect()
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
    fn a_pick_is_distinct_and_from_the_items() {
        let cards: Vec<u8> = (1..=18).collect();
        let mut draw = Draw::new(3, 0);
        for n in [0, 1, 6, 18, 30] {
            let mut picked = draw.pick(&cards, n);
            assert_eq!(picked.len(), n.min(18));
            assert!(picked.iter().all(|c| cards.contains(c)));
            picked.sort_unstable();
            picked.dedup();
            assert_eq!(picked.len(), n.min(18), "a card drawn twice");
        }
    }

    #[test]
    fn shuffles_and_picks_are_roughly_uniform() {
        let mut first = [0u32; 4];
        let mut picked = [0u32; 4];
        let mut draw = Draw::new(1, 0);
        for _ in 0..4000 {
            let mut v = [0, 1, 2, 3];
            draw.shuffle(&mut v);
            first[v[0]] += 1;
            picked[draw.pick(&[0, 1, 2, 3], 1)[0]] += 1;
        }
        for counts in [first, picked] {
            assert!(
                counts.iter().all(|&c| (850..1150).contains(&c)),
                "{counts:?}"
            );
        }
    }
}
