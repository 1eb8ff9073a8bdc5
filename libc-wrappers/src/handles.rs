//! Tables of runtime-held state named by handles the program stores in its
//! own structures (`regex_t`, `iconv_t`, `posix_spawn_file_actions_t`):
//! glibc's versions hold pointers the program must not forge, so the
//! program gets a number instead, checked against the table at every use.

use std::collections::HashMap;
use std::sync::Mutex;

/// Live values by handle. Handles start at a per-table tag in the top 16
/// bits, so 0 (a zeroed structure) and small integers are never live.
pub struct Handles<T> {
    tag: u64,
    table: Mutex<Option<(u64, HashMap<u64, T>)>>,
}

impl<T> Handles<T> {
    /// An empty table whose handles carry `tag` in their top 16 bits.
    pub const fn new(tag: u16) -> Handles<T> {
        Handles {
            tag: (tag as u64) << 48,
            table: Mutex::new(None),
        }
    }

    fn with<R>(&self, f: impl FnOnce(&mut (u64, HashMap<u64, T>)) -> R) -> R {
        let mut guard = self.table.lock().unwrap_or_else(|e| e.into_inner());
        f(guard.get_or_insert_with(|| (0, HashMap::new())))
    }

    /// Keeps `value` under a fresh handle, which it returns.
    pub fn insert(&self, value: T) -> u64 {
        self.with(|(last, live)| {
            *last += 1;
            let id = self.tag + *last;
            live.insert(id, value);
            id
        })
    }

    /// Runs `f` on the value of handle `h` (`None` if no such handle).
    pub fn with_value<R>(&self, h: u64, f: impl FnOnce(Option<&mut T>) -> R) -> R {
        self.with(|(_, live)| f(live.get_mut(&h)))
    }

    /// Takes the value of handle `h` out of the table.
    pub fn remove(&self, h: u64) -> Option<T> {
        self.with(|(_, live)| live.remove(&h))
    }
}

impl<T: Clone> Handles<T> {
    /// A copy of the value of handle `h`.
    pub fn get(&self, h: u64) -> Option<T> {
        self.with_value(h, |v| v.cloned())
    }
}
