//! Corpus shards: reading never panics. Whole files (starting `OXCS`) go to `Shard::decode`
//! as they are; any other input is a game count (its first byte, up to 7) and packed games,
//! put in a version-4 shard with a valid checksum, so the fuzzer reaches the packed decoder
//! behind the checksum. A shard that reads back is written again and reads back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oxello::corpus::Shard;
use oxello::eval::weights::fnv1a;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.oxc");
    let bytes = if data.starts_with(b"OXCS") {
        data.to_vec()
    } else {
        let Some((&count, games)) = data.split_first() else { return };
        let header = b"run=fuzz\nchunk=0\nchunk_games=8\n";
        let mut b = b"OXCS".to_vec();
        b.extend_from_slice(&4u32.to_le_bytes());
        b.extend_from_slice(&(header.len() as u32).to_le_bytes());
        b.extend_from_slice(header);
        b.extend_from_slice(&u32::from(count % 8).to_le_bytes());
        b.extend_from_slice(games);
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    };
    if let Ok(shard) = Shard::decode(&bytes, path) {
        let again = Shard::decode(&shard.encode(), path).expect("a written shard reads back");
        assert_eq!(again, shard);
    }
});
