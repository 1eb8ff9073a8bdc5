/* A small lua.c-style driver written here for the Lua 5.4 library of the
 * lua-src crate: runs each script named on the command line in one state
 * with the standard libraries, passing the remaining arguments in `arg`.
 *
 *   lua_main SCRIPT [ARG ...]
 *
 * An error (also from a script's own error()) prints "lua: MESSAGE" with
 * a traceback on stderr and exits 1. */
#include <stdio.h>
#include <stdlib.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

static int traceback(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s SCRIPT [ARG ...]\n", argv[0]);
        return 2;
    }
    lua_State *L = luaL_newstate();
    if (!L) {
        fprintf(stderr, "lua: cannot create state\n");
        return 1;
    }
    luaL_openlibs(L);
    lua_createtable(L, argc - 2, 1);
    for (int i = 1; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - 1);
    }
    lua_setglobal(L, "arg");
    lua_pushcfunction(L, traceback);
    int status = luaL_loadfile(L, argv[1]);
    if (status == LUA_OK) {
        for (int i = 2; i < argc; i++)
            lua_pushstring(L, argv[i]);
        status = lua_pcall(L, argc - 2, 0, 1);
    }
    if (status != LUA_OK) {
        fprintf(stderr, "lua: %s\n", lua_tostring(L, -1));
        lua_close(L);
        return 1;
    }
    lua_close(L);
    return 0;
}
