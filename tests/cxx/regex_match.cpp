/* gimso-test
 * expect: run
 * stdout:
 * | first date 2024-03-15: year 2024 month 03 day 15 at 12
 * | found 2024-03-15
 * | found 2024-04-01
 * | match whole 1, partial 0
 * | released on 15/03/2024 and patched 01/04/2024
 * | icase 1
 * | [split][these][words][now]
 * | extended 1
 * | regex_error paren 1
 * | email 1
 */
// <regex>: match, search with groups, replace, iteration, icase and
// multiple grammars.
#include <cstdio>
#include <regex>
#include <string>

int main() {
    std::regex date(R"((\d{4})-(\d{2})-(\d{2}))");
    std::smatch m;
    std::string s = "released on 2024-03-15 and patched 2024-04-01";
    if (std::regex_search(s, m, date))
        printf("first date %s: year %s month %s day %s at %ld\n", m[0].str().c_str(), m[1].str().c_str(),
               m[2].str().c_str(), m[3].str().c_str(), (long)m.position(0));
    for (std::sregex_iterator it(s.begin(), s.end(), date), end; it != end; ++it)
        printf("found %s\n", it->str().c_str());
    printf("match whole %d, partial %d\n", std::regex_match("2024-01-02", date), std::regex_match("x2024-01-02", date));
    std::string swapped = std::regex_replace(s, date, "$3/$2/$1");
    printf("%s\n", swapped.c_str());
    std::regex word("hello", std::regex::icase);
    printf("icase %d\n", std::regex_search("Say HeLLo there", word));
    std::regex ws("\\s+");
    std::string text = "split   these\twords  now";
    for (std::sregex_token_iterator it(text.begin(), text.end(), ws, -1), end; it != end; ++it)
        printf("[%s]", it->str().c_str());
    printf("\n");
    std::regex posix("[[:alpha:]]+[[:digit:]]*", std::regex::extended);
    printf("extended %d\n", std::regex_match("abc123", posix));
    try {
        std::regex bad("(unclosed");
    } catch (const std::regex_error &e) {
        printf("regex_error paren %d\n", e.code() == std::regex_constants::error_paren);
    }
    std::string email = "user.name+tag@example.co.uk";
    std::regex em(R"(^([\w.+-]+)@([\w-]+\.)+\w{2,}$)");
    printf("email %d\n", std::regex_match(email, em));
}
