/** The markdown templates of templates/, inlined into the build. */
import proposal from '../../templates/proposal.md?raw';
import reviewRound from '../../templates/review-round.md?raw';
import spec from '../../templates/spec.md?raw';
import task from '../../templates/task.md?raw';
import tasks from '../../templates/tasks.md?raw';

export const TEMPLATES = { proposal, spec, tasks, task, reviewRound };
