// The fillseq, fillrandom, readrandom and readseq benchmarks of LevelDB
// 1.22's db/db_bench.cc with the same keys ("%016d"), values (100 bytes of
// its compressible generator), seeds and options, through the public API on
// one thread. db_bench reaches each benchmark through a pointer to a member
// function kept in a heap struct, which gimso-c++ cannot yet call
// (docs/leveldb.md); this driver measures the same work without one.
// Accepts db_bench's --benchmarks= (one name), --num=, --db= and
// --use_existing_db=, and prints its "name : N micros/op;" line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "util/random.h"
#include "util/testutil.h"

namespace {

// db_bench's RandomGenerator: values are windows of 1 MiB of data that
// compresses to half its size.
class RandomGenerator {
 public:
  RandomGenerator() {
    leveldb::Random rnd(301);
    std::string piece;
    while (data_.size() < 1048576) {
      leveldb::test::CompressibleString(&rnd, 0.5, 100, &piece);
      data_.append(piece);
    }
  }
  leveldb::Slice Generate(size_t len) {
    if (pos_ + len > data_.size()) pos_ = 0;
    pos_ += len;
    return leveldb::Slice(data_.data() + pos_ - len, len);
  }

 private:
  std::string data_;
  size_t pos_ = 0;
};

void Check(const leveldb::Status& s, const char* what) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string name = "fillseq", db_path = "/tmp/leveldb_bench";
  int num = 100000;
  bool existing = false;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    if (std::strncmp(a, "--benchmarks=", 13) == 0) {
      name = a + 13;
    } else if (std::strncmp(a, "--num=", 6) == 0) {
      num = std::atoi(a + 6);
    } else if (std::strncmp(a, "--db=", 5) == 0) {
      db_path = a + 5;
    } else if (std::strncmp(a, "--use_existing_db=", 18) == 0) {
      existing = std::atoi(a + 18) != 0;
    } else {
      std::fprintf(stderr, "unknown argument %s\n", a);
      return 2;
    }
  }
  leveldb::Options options;
  options.create_if_missing = !existing;
  if (!existing) leveldb::DestroyDB(db_path, options);
  leveldb::DB* db = nullptr;
  Check(leveldb::DB::Open(options, db_path, &db), "open");

  leveldb::Env* env = leveldb::Env::Default();
  // db_bench's ThreadState(0) seed.
  leveldb::Random rand(1000);
  char key[100];
  long found = 0, done = 0;
  uint64_t start = env->NowMicros();
  if (name == "fillseq" || name == "fillrandom") {
    RandomGenerator gen;
    leveldb::WriteBatch batch;
    const bool seq = name == "fillseq";
    for (int i = 0; i < num; i++) {
      batch.Clear();
      const int k = seq ? i : static_cast<int>(rand.Next() % num);
      std::snprintf(key, sizeof(key), "%016d", k);
      batch.Put(key, gen.Generate(100));
      Check(db->Write(leveldb::WriteOptions(), &batch), "put");
      done++;
    }
  } else if (name == "readrandom") {
    std::string value;
    for (int i = 0; i < num; i++) {
      const int k = static_cast<int>(rand.Next() % num);
      std::snprintf(key, sizeof(key), "%016d", k);
      if (db->Get(leveldb::ReadOptions(), key, &value).ok()) found++;
      done++;
    }
  } else if (name == "readseq") {
    leveldb::Iterator* it = db->NewIterator(leveldb::ReadOptions());
    long bytes = 0;
    for (it->SeekToFirst(); done < num && it->Valid(); it->Next()) {
      bytes += it->key().size() + it->value().size();
      done++;
    }
    Check(it->status(), "iterate");
    delete it;
    found = bytes > 0 ? done : 0;
  } else {
    std::fprintf(stderr, "unknown benchmark %s\n", name.c_str());
    return 2;
  }
  const double micros = static_cast<double>(env->NowMicros() - start);
  std::printf("%-12s : %11.3f micros/op; (%ld ops, %ld found)\n", name.c_str(),
              done ? micros / done : 0.0, done, found);
  delete db;
  return 0;
}
