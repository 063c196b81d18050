// The runs' front door: the stage (the session's turns and their results) and a request shown as code.
export { RunStage } from './RunStage.tsx';
export { CopyAsCode } from './CopyAsCode.tsx';
