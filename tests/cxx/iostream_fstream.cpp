/* gimso-test
 * expect: run
 * stdout:
 * | read: line 3 value 9
 * | read: appended
 * | lines 6
 * | after seekg: 1
 * | binary size 4000
 * | data[500] 1500
 * | rewritten -1
 * | missing is_open 0 fail 1
 */
// File streams: ofstream/ifstream text and binary, getline, seeking,
// appending, fstream read/write, and a missing file.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

int main() {
    char dir[] = "/tmp/gimso-fstream-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    std::string text = std::string(dir) + "/text.txt";
    std::string bin = std::string(dir) + "/data.bin";
    {
        std::ofstream out(text);
        for (int i = 1; i <= 5; i++) out << "line " << i << " value " << i * i << '\n';
    }
    {
        std::ofstream app(text, std::ios::app);
        app << "appended\n";
    }
    std::ifstream in(text);
    std::string line;
    int lines = 0;
    while (std::getline(in, line)) {
        lines++;
        if (lines == 3 || line == "appended") std::cout << "read: " << line << '\n';
    }
    std::cout << "lines " << lines << '\n';
    in.clear();
    in.seekg(5);
    int first;
    in >> first;
    std::cout << "after seekg: " << first << '\n';
    std::vector<int> data(1000);
    for (int i = 0; i < 1000; i++) data[i] = i * 3;
    {
        std::ofstream out(bin, std::ios::binary);
        out.write(reinterpret_cast<const char *>(data.data()), data.size() * sizeof(int));
    }
    std::ifstream bi(bin, std::ios::binary | std::ios::ate);
    std::cout << "binary size " << bi.tellg() << '\n';
    bi.seekg(500 * sizeof(int));
    int v;
    bi.read(reinterpret_cast<char *>(&v), sizeof v);
    std::cout << "data[500] " << v << '\n';
    {
        std::fstream io(bin, std::ios::in | std::ios::out | std::ios::binary);
        int repl = -1;
        io.seekp(10 * sizeof(int));
        io.write(reinterpret_cast<const char *>(&repl), sizeof repl);
        io.seekg(10 * sizeof(int));
        int back = 0;
        io.read(reinterpret_cast<char *>(&back), sizeof back);
        std::cout << "rewritten " << back << '\n';
    }
    std::ifstream missing(std::string(dir) + "/nope");
    std::cout << "missing is_open " << missing.is_open() << " fail " << missing.fail() << '\n';
    unlink(text.c_str());
    unlink(bin.c_str());
    rmdir(dir);
}
