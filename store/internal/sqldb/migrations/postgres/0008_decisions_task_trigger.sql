-- tausik schema version 8: an index on a task's decisions by trigger. Every
-- hook call checks each active task's row against the last task-state entry
-- of the log (store/internal/workstate/taskcheck.go); with decisions_task alone that walks back
-- over every decision of the task since it started, so a hook's time grew
-- with the length of the session.
CREATE INDEX decisions_task_trigger ON decisions (task, trigger, seq);
