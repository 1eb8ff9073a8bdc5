/* gimso-test
 * expect: run
 * stdout:
 * | "libfoo.so.1" "libfoo.so" ".1" "/usr/local/lib"
 * | a/b/c.txt a/b/c.md
 * | /x/z
 * | a.txt b.txt c.log sub/ 
 * | regular files 3
 * | size of a.txt 17
 * | exists copy 1 old b 0
 * | error_code set 1
 * | filesystem_error no_such_file 1
 * | is_directory 1
 * | removed 7 entries, gone 1
 * | temp dir absolute 1
 */
// <filesystem>: paths, creating and listing directories, sizes, copies,
// renames, removal, errors through error_code and filesystem_error.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

int main() {
    fs::path p = "/usr/local/lib/libfoo.so.1";
    std::cout << p.filename() << ' ' << p.stem() << ' ' << p.extension() << ' ' << p.parent_path() << '\n';
    fs::path joined = fs::path("a") / "b" / "c.txt";
    std::cout << joined.string() << ' ' << joined.replace_extension(".md").string() << '\n';
    std::cout << fs::path("/x/./y/../z").lexically_normal().string() << '\n';
    char tmpl[] = "/tmp/gimso-fs-XXXXXX";
    fs::path root = mkdtemp(tmpl);
    fs::create_directories(root / "sub" / "deeper");
    for (auto name : {"b.txt", "a.txt", "c.log"}) std::ofstream(root / name) << "content of " << name << '\n';
    std::vector<std::string> names;
    for (auto &e : fs::directory_iterator(root)) names.push_back(e.path().filename().string() + (e.is_directory() ? "/" : ""));
    std::sort(names.begin(), names.end());
    for (auto &n : names) std::cout << n << ' ';
    std::cout << '\n';
    int files = 0;
    for (auto &e : fs::recursive_directory_iterator(root)) files += e.is_regular_file();
    std::cout << "regular files " << files << '\n';
    std::cout << "size of a.txt " << fs::file_size(root / "a.txt") << '\n';
    fs::copy_file(root / "a.txt", root / "sub" / "copy.txt");
    fs::rename(root / "b.txt", root / "sub" / "deeper" / "moved.txt");
    std::cout << "exists copy " << fs::exists(root / "sub" / "copy.txt") << " old b " << fs::exists(root / "b.txt") << '\n';
    std::error_code ec;
    fs::file_size(root / "missing", ec);
    std::cout << "error_code set " << bool(ec) << '\n';
    try {
        fs::file_size(root / "missing");
    } catch (const fs::filesystem_error &e) {
        std::cout << "filesystem_error no_such_file " << (e.code() == std::errc::no_such_file_or_directory) << '\n';
    }
    std::cout << "is_directory " << fs::is_directory(root / "sub") << '\n';
    auto removed = fs::remove_all(root);
    std::cout << "removed " << removed << " entries, gone " << !fs::exists(root) << '\n';
    std::cout << "temp dir absolute " << fs::temp_directory_path().is_absolute() << '\n';
}
