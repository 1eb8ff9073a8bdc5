//! The two phases over hand-built frame records, with personalities and
//! stop functions as Rust closures that log what they were asked.

use gimso_abi::{
    FlightPtr, FrameRecord, UA_CLEANUP_PHASE, UA_END_OF_STACK, UA_FORCE_UNWIND, UA_HANDLER_FRAME,
    UA_SEARCH_PHASE, URC_CONTINUE_UNWIND, URC_END_OF_STACK, URC_FATAL_PHASE1_ERROR,
    URC_HANDLER_FOUND, URC_INSTALL_CONTEXT, URC_NO_REASON,
};
use gimso_unwind::engine::{
    self, ContextData, Pad, Personalities, Raise, UnwindError, at_barrier, force, in_flight,
    landing_pad, raise,
};
use gimso_unwind::frames::Frame;

fn ptr(v: usize) -> FlightPtr {
    // SAFETY: the unwinder only compares these values and hands them to
    // the test's personalities; no header is read through them.
    unsafe { FlightPtr::from_lower(v) }
}

/// Records innermost first: `specs[i] = (personality id or 0 for a
/// barrier, lsda id or 0)`.
// Boxed: each record keeps its address however the vector is moved.
#[allow(clippy::vec_box)]
fn chain(specs: &[(usize, usize)]) -> Vec<Box<FrameRecord>> {
    let mut recs: Vec<Box<FrameRecord>> = specs
        .iter()
        .map(|&(p, l)| {
            Box::new(FrameRecord {
                prev: core::ptr::null_mut(),
                personality: if p == 0 { FlightPtr::NULL } else { ptr(p) },
                lsda: if l == 0 { FlightPtr::NULL } else { ptr(l) },
                epoch: 0,
            })
        })
        .collect();
    for i in 0..recs.len().saturating_sub(1) {
        let outer: *mut FrameRecord = &mut *recs[i + 1];
        recs[i].prev = outer;
    }
    recs
}

fn top(recs: &mut [Box<FrameRecord>]) -> *mut FrameRecord {
    &mut *recs[0]
}

#[derive(Default)]
struct Log {
    /// (lsda id, actions) of each personality call.
    calls: Vec<(usize, u64)>,
    /// (lsda id or 0, actions) of each stop call.
    stops: Vec<(usize, u64)>,
    /// lsda id → what the personality answers in search / cleanup.
    catches: Vec<usize>,
    cleans: Vec<usize>,
    stop_answer: u64,
}

impl Personalities for Log {
    fn personality(
        &mut self,
        frame: &Frame,
        actions: u64,
        _class: u64,
        exc: FlightPtr,
        ctx: &mut ContextData,
    ) -> u64 {
        let id = frame.lsda.intval();
        assert_eq!(ctx.lsda, frame.lsda);
        self.calls.push((id, actions));
        if actions & UA_SEARCH_PHASE != 0 {
            return if self.catches.contains(&id) {
                URC_HANDLER_FOUND
            } else {
                URC_CONTINUE_UNWIND
            };
        }
        if self.catches.contains(&id) && actions & UA_HANDLER_FRAME != 0
            || self.cleans.contains(&id)
        {
            ctx.regs = [exc, ptr(id)];
            return URC_INSTALL_CONTEXT;
        }
        URC_CONTINUE_UNWIND
    }

    fn stop(
        &mut self,
        _stop: FlightPtr,
        _arg: FlightPtr,
        frame: Option<&Frame>,
        actions: u64,
        _class: u64,
        _exc: FlightPtr,
        _ctx: &mut ContextData,
    ) -> u64 {
        self.stops
            .push((frame.map_or(0, |f| f.lsda.intval()), actions));
        self.stop_answer
    }
}

const EXC: usize = 0x1000;

#[test]
fn no_handler_is_end_of_stack_without_cleanups() {
    let mut recs = chain(&[(1, 10), (1, 0), (1, 11)]);
    let mut log = Log {
        cleans: vec![10, 11],
        ..Log::default()
    };
    // SAFETY: the records are live boxes chained innermost first.
    let r = unsafe { raise(&mut log, top(&mut recs), ptr(EXC), 7, Box::new(())) };
    assert_eq!(r, Raise::Return(URC_END_OF_STACK));
    // Only search calls, and only for frames in a call with a landing pad.
    assert_eq!(
        log.calls,
        vec![(10, UA_SEARCH_PHASE), (11, UA_SEARCH_PHASE)]
    );
    assert_eq!(in_flight(), 0);
}

#[test]
fn barrier_ends_the_search() {
    let mut recs = chain(&[(1, 10), (0, 0), (1, 11)]);
    let mut log = Log {
        catches: vec![11],
        ..Log::default()
    };
    // SAFETY: live chain.
    let r = unsafe { raise(&mut log, top(&mut recs), ptr(EXC), 7, Box::new(())) };
    assert_eq!(r, Raise::Return(URC_END_OF_STACK));
    assert_eq!(log.calls, vec![(10, UA_SEARCH_PHASE)]);
}

#[test]
fn failing_personality_is_a_phase1_error() {
    struct Bad;
    impl Personalities for Bad {
        fn personality(
            &mut self,
            _: &Frame,
            _: u64,
            _: u64,
            _: FlightPtr,
            _: &mut ContextData,
        ) -> u64 {
            99
        }
        fn stop(
            &mut self,
            _: FlightPtr,
            _: FlightPtr,
            _: Option<&Frame>,
            _: u64,
            _: u64,
            _: FlightPtr,
            _: &mut ContextData,
        ) -> u64 {
            unreachable!()
        }
    }
    let mut recs = chain(&[(1, 10)]);
    // SAFETY: live chain.
    let r = unsafe { raise(&mut Bad, top(&mut recs), ptr(EXC), 7, Box::new(())) };
    assert_eq!(r, Raise::Return(URC_FATAL_PHASE1_ERROR));
}

#[test]
fn cleanups_run_innermost_first_and_stop_at_the_handler() {
    // Frame 0 cleans up, frame 1 is in a plain call, frame 2 catches.
    let mut recs = chain(&[(1, 10), (1, 0), (1, 12), (1, 13)]);
    let mut log = Log {
        catches: vec![12],
        cleans: vec![10, 13],
        ..Log::default()
    };
    // SAFETY: live chain.
    let r = unsafe { raise(&mut log, top(&mut recs), ptr(EXC), 7, Box::new(())) };
    assert_eq!(r, Raise::Unwind);
    assert_eq!(
        log.calls,
        vec![(10, UA_SEARCH_PHASE), (12, UA_SEARCH_PHASE)]
    );
    assert_eq!(in_flight(), 1);
    assert_eq!(engine::current_exception(), Some(ptr(EXC)));
    log.calls.clear();

    // Phase 2: each frame as its invoke sees the flag.
    let f0: *mut FrameRecord = &mut *recs[0];
    let f1: *mut FrameRecord = &mut *recs[1];
    let f2: *mut FrameRecord = &mut *recs[2];
    // SAFETY: live records.
    unsafe {
        assert_eq!(
            landing_pad(&mut log, f0),
            Ok(Pad::Enter([ptr(EXC), ptr(10)]))
        );
        // The cleanup resumes.
        assert_eq!(engine::resume(ptr(EXC)), Ok(()));
        assert_eq!(landing_pad(&mut log, f1), Ok(Pad::Continue));
        assert_eq!(
            landing_pad(&mut log, f2),
            Ok(Pad::Enter([ptr(EXC), ptr(12)]))
        );
    }
    assert_eq!(
        log.calls,
        vec![
            (10, UA_CLEANUP_PHASE),
            (12, UA_CLEANUP_PHASE | UA_HANDLER_FRAME)
        ]
    );
    // Caught: nothing in flight, frame 3's cleanup never ran.
    assert_eq!(in_flight(), 0);
    assert_eq!(engine::resume(ptr(EXC)), Err(UnwindError::NothingInFlight));
}

#[test]
fn nested_exceptions_unwind_innermost_first() {
    let mut outer = chain(&[(1, 10), (1, 20)]);
    let mut log = Log {
        catches: vec![20, 30],
        cleans: vec![10],
        ..Log::default()
    };
    // SAFETY: live chains.
    unsafe {
        assert_eq!(
            raise(&mut log, top(&mut outer), ptr(EXC), 1, Box::new(())),
            Raise::Unwind
        );
        // The cleanup of frame 0 raises and catches its own exception.
        let mut inner = chain(&[(1, 30)]);
        inner[0].prev = top(&mut outer);
        assert_eq!(
            raise(&mut log, top(&mut inner), ptr(0x2000), 2, Box::new(())),
            Raise::Unwind
        );
        assert_eq!(in_flight(), 2);
        assert_eq!(
            landing_pad(&mut log, top(&mut inner)),
            Ok(Pad::Enter([ptr(0x2000), ptr(30)]))
        );
        assert_eq!(engine::current_exception(), Some(ptr(EXC)));
        let f1: *mut FrameRecord = &mut *outer[1];
        assert_eq!(
            landing_pad(&mut log, f1),
            Ok(Pad::Enter([ptr(EXC), ptr(20)]))
        );
    }
    assert_eq!(in_flight(), 0);
}

#[test]
fn forced_unwind_consults_stop_then_personality_and_ends_at_the_barrier() {
    let mut recs = chain(&[(1, 10), (1, 0), (0, 0)]);
    let mut log = Log {
        cleans: vec![10],
        stop_answer: URC_NO_REASON,
        ..Log::default()
    };
    assert_eq!(
        force(ptr(EXC), 3, ptr(0x77), ptr(0x78), Box::new(())),
        Raise::Unwind
    );
    let f0: *mut FrameRecord = &mut *recs[0];
    let f1: *mut FrameRecord = &mut *recs[1];
    // SAFETY: live records.
    unsafe {
        assert_eq!(
            landing_pad(&mut log, f0),
            Ok(Pad::Enter([ptr(EXC), ptr(10)]))
        );
        assert_eq!(landing_pad(&mut log, f1), Ok(Pad::Continue));
    }
    let forced = UA_CLEANUP_PHASE | UA_FORCE_UNWIND;
    assert_eq!(log.calls, vec![(10, forced)]);
    assert_eq!(
        at_barrier(&mut log),
        UnwindError::ForcedEndOfStack(URC_NO_REASON)
    );
    assert_eq!(
        log.stops,
        vec![(10, forced), (0, forced), (0, forced | UA_END_OF_STACK)]
    );
    engine::abandon();
    assert_eq!(in_flight(), 0);
}

#[test]
fn phase2_errors() {
    let mut log = Log::default();
    let mut recs = chain(&[(1, 10)]);
    // SAFETY: live records.
    unsafe {
        assert_eq!(
            landing_pad(&mut log, top(&mut recs)),
            Err(UnwindError::NothingInFlight)
        );
    }
    assert_eq!(at_barrier(&mut log), UnwindError::NothingInFlight);
    // A normal exception at a barrier.
    log.catches = vec![10];
    // SAFETY: live records.
    unsafe {
        assert_eq!(
            raise(&mut log, top(&mut recs), ptr(EXC), 1, Box::new(())),
            Raise::Unwind
        );
    }
    assert_eq!(at_barrier(&mut log), UnwindError::ReachedBarrier);
    assert_eq!(
        engine::resume(ptr(0x3000)),
        Err(UnwindError::ResumeMismatch)
    );
    // The handler declines in phase 2.
    log.catches.clear();
    // SAFETY: live records.
    unsafe {
        assert_eq!(
            landing_pad(&mut log, top(&mut recs)),
            Err(UnwindError::HandlerDeclined)
        );
    }
    engine::abandon();
}
