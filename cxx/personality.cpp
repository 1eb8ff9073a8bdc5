// The C++ personality (__gxx_personality_v0) for libc++abi on gimso's
// unwinder. It takes the place of libc++abi's cxa_personality.cpp, which
// reads DWARF call-site tables keyed by instruction addresses: gimso's
// frames have no such addresses, and the LSDA a personality receives is
// gimso's own (gimso.h, gimso_eh_landing_pad): for the frame's current
// invoke, the cleanup flag and its clauses in order.
//
// Built with libc++abi's sources (scripts/build-libcxx.sh), so it uses
// libc++abi's own exception header (cxa_exception.h) and its type_info
// classes' can_catch (private_typeinfo.h): catching follows exactly the
// rules the rest of libc++abi implements (derived-to-base adjustment,
// qualification conversions, nullptr_t, pointers to members).

#include <exception>
#include <stdint.h>
#include <unwind.h>

#include "cxa_exception.h"
#include "gimso.h"
#include "private_typeinfo.h"

namespace __cxxabiv1 {

namespace {

// The vendor and language bytes of an exception class ("CLNGC++"); the
// last byte says primary (0) or dependent (1).
constexpr uint64_t kVendorAndLanguage = 0xFFFFFFFFFFFFFF00ULL;

bool is_native(uint64_t exception_class) {
    return (exception_class & kVendorAndLanguage) ==
           (kOurExceptionClass & kVendorAndLanguage);
}

// The thrown object: after the header for a primary exception, the
// primary's object for a dependent one (std::rethrow_exception).
void *thrown_object(_Unwind_Exception *ue) {
    void *obj = ue + 1;
    if (ue->exception_class == kOurDependentExceptionClass)
        obj = (reinterpret_cast<__cxa_dependent_exception *>(obj) - 1)->primaryException;
    return obj;
}

__cxa_exception *header_of(_Unwind_Exception *ue) {
    return reinterpret_cast<__cxa_exception *>(ue + 1) - 1;
}

// Whether `catch_type` catches the exception; `adjusted` receives the
// pointer the handler binds (adjusted to a base, or the pointer value
// itself for pointer types).
bool catches(const std::type_info *catch_type, __cxa_exception *h, void *obj,
             void **adjusted) {
    const auto *want = static_cast<const __shim_type_info *>(catch_type);
    const auto *thrown = static_cast<const __shim_type_info *>(h->exceptionType);
    void *p = obj;
    if (want->can_catch(thrown, p)) {
        *adjusted = p;
        return true;
    }
    return false;
}

struct Choice {
    int64_t selector = 0;
    void *adjusted = nullptr;
};

// The first clause of `lp` that applies to the exception, as the
// landing pad's selector (0: none).
Choice choose(const gimso_eh_landing_pad *lp, _Unwind_Exception *ue, bool native) {
    Choice c;
    __cxa_exception *h = native ? header_of(ue) : nullptr;
    void *obj = native ? thrown_object(ue) : nullptr;
    for (uint64_t i = 0; i < lp->num_clauses; i++) {
        const gimso_eh_clause *cl = &lp->clauses[i];
        if (cl->kind == GIMSO_EH_CLAUSE_CATCH) {
            const auto *t = static_cast<const std::type_info *>(cl->types[0]);
            if (!t) {
                c.selector = cl->selector;
                c.adjusted = obj;
                return c;
            }
            if (native && catches(t, h, obj, &c.adjusted)) {
                c.selector = cl->selector;
                return c;
            }
        } else if (cl->kind == GIMSO_EH_CLAUSE_FILTER) {
            // An exception specification: applies when the exception is
            // none of the types it allows (a foreign one never is).
            bool allowed = false;
            for (uint64_t k = 0; native && k < cl->num_types && !allowed; k++) {
                void *ignored;
                allowed = catches(static_cast<const std::type_info *>(cl->types[k]), h, obj,
                                  &ignored);
            }
            if (!allowed) {
                c.selector = cl->selector;
                return c;
            }
        }
    }
    return c;
}

} // namespace

extern "C" _LIBCXXABI_FUNC_VIS _Unwind_Reason_Code
__gxx_personality_v0(int version, _Unwind_Action actions, uint64_t exception_class,
                     _Unwind_Exception *ue, _Unwind_Context *ctx) {
    if (version != 1 || !ue || !ctx)
        return _URC_FATAL_PHASE1_ERROR;
    const auto *lp =
        static_cast<const gimso_eh_landing_pad *>(_Unwind_GetLanguageSpecificData(ctx));
    if (!lp)
        return _URC_CONTINUE_UNWIND;
    bool native = is_native(exception_class);
    Choice c;
    if (!(actions & _UA_FORCE_UNWIND))
        c = choose(lp, ue, native);
    if (actions & _UA_SEARCH_PHASE) {
        if (!c.selector)
            return _URC_CONTINUE_UNWIND;
        if (native) {
            __cxa_exception *h = header_of(ue);
            h->handlerSwitchValue = static_cast<int>(c.selector);
            h->adjustedPtr = c.adjusted;
        }
        return _URC_HANDLER_FOUND;
    }
    if ((actions & _UA_HANDLER_FRAME) && c.selector) {
        if (native)
            header_of(ue)->adjustedPtr = c.adjusted;
        _Unwind_SetGR(ctx, 0, reinterpret_cast<uintptr_t>(ue));
        _Unwind_SetGR(ctx, 1, static_cast<uintptr_t>(c.selector));
        return _URC_INSTALL_CONTEXT;
    }
    if (lp->cleanup) {
        _Unwind_SetGR(ctx, 0, reinterpret_cast<uintptr_t>(ue));
        _Unwind_SetGR(ctx, 1, 0);
        return _URC_INSTALL_CONTEXT;
    }
    return _URC_CONTINUE_UNWIND;
}

// An exception left a function through a dynamic exception specification
// it does not allow (C++14 and before; C++17 has only noexcept). The
// unexpected handler may not return; gimso runs std::terminate's path, as
// a specification violation with the default handler does.
extern "C" _LIBCXXABI_FUNC_VIS _LIBCXXABI_NORETURN void __cxa_call_unexpected(void *arg) {
    auto *ue = static_cast<_Unwind_Exception *>(arg);
    __cxa_begin_catch(ue);
    std::terminate();
}

} // namespace __cxxabiv1
