/**
 * The text views, one per kind of result: the compiler checks that every view has a renderer and
 * that each renderer takes the data its commands return (`ViewData`).
 */
import type {
  CaptureReport,
  CleanupPlan,
  ConsolidationCandidates,
  ConsolidationPlan,
  DeleteResult,
  DoctorReport,
  EmbedResult,
  ImportReport,
  SourceImportReport,
  IngestReport,
  PullResult,
  PutResult,
  ReindexResult,
  SearchResult,
  ShowResult,
  StatusReport,
  SyncReport,
} from '../../engram.js';
import type { ReviewDecision, ReviewReport } from '../../items/governance.js';
import type { PolicyVerdict } from '../../policy/evaluate.js';
import type { StoreStats } from '../../types.js';
import { captureView } from './capture.js';
import { importFromView } from './import-from.js';
import { type InitResult, initView } from './init.js';
import { ingestView, pullView } from './ingest.js';
import {
  decisionView,
  deleteView,
  type HistoryView,
  historyView,
  type ItemView,
  itemView,
  type LinksView,
  linksView,
  type ListView,
  listView,
  putView,
  showView,
} from './items.js';
import { candidatesView, cleanupView, consolidateView, suggestView, type SuggestView } from './lifecycle.js';
import type { Palette } from './palette.js';
import { policyView, type RulesView, rulesView } from './policy.js';
import { reviewView } from './review.js';
import { searchView } from './search.js';
import { statusView } from './status.js';
import { type FoldersView, foldersView, syncView, type WatchSummary, watchView } from './sync.js';
import { type ClientsView, clientsView, type SetupResult, setupView } from './setup.js';
import { doctorView, embedView, importView, statsView, type WorkspacesView, workspacesView } from './store.js';

/** The data of each view: what a command returns under that view name. */
export interface ViewData {
  item: ItemView;
  put: PutResult;
  list: ListView;
  search: SearchResult;
  show: ShowResult;
  history: HistoryView;
  delete: DeleteResult;
  stats: StoreStats | ReindexResult;
  import: ImportReport;
  importFrom: SourceImportReport;
  init: InitResult;
  doctor: DoctorReport;
  embed: EmbedResult;
  policy: PolicyVerdict;
  rules: RulesView;
  review: ReviewReport;
  decision: ReviewDecision;
  ingest: IngestReport;
  pull: PullResult;
  capture: CaptureReport;
  links: LinksView;
  cleanup: CleanupPlan;
  suggest: SuggestView;
  consolidate: ConsolidationPlan;
  candidates: ConsolidationCandidates;
  workspaces: WorkspacesView;
  status: StatusReport;
  sync: SyncReport;
  watch: WatchSummary;
  folders: FoldersView;
  setup: SetupResult;
  clients: ClientsView;
}

/** A text renderer name. */
export type View = keyof ViewData;

/** A command's data under its view name; with `V` a union, the union of the pairs. */
export type ViewOutput<V extends View = View> = { [K in V]: { view: K; data: ViewData[K] } }[V];

const TEXT_VIEWS: { [V in View]: (data: ViewData[V], p: Palette) => string } = {
  item: itemView,
  put: putView,
  list: listView,
  search: searchView,
  show: showView,
  history: historyView,
  delete: deleteView,
  stats: statsView,
  import: importView,
  importFrom: importFromView,
  init: initView,
  doctor: doctorView,
  embed: embedView,
  policy: policyView,
  rules: rulesView,
  review: reviewView,
  decision: decisionView,
  ingest: ingestView,
  pull: pullView,
  capture: captureView,
  links: linksView,
  cleanup: cleanupView,
  suggest: suggestView,
  consolidate: consolidateView,
  candidates: candidatesView,
  workspaces: workspacesView,
  status: statusView,
  sync: syncView,
  watch: watchView,
  folders: foldersView,
  setup: setupView,
  clients: clientsView,
};

/** The text of a command's data, by its view. */
export function renderView<V extends View>(output: ViewOutput<V>, p: Palette): string {
  const render: (data: ViewData[V], p: Palette) => string = TEXT_VIEWS[output.view];
  return render(output.data, p);
}
