import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { AppShell } from './shell';
import { AdminPage } from './pages/admin';
import { ApprovalPolicyPage } from './admin/approval-policy-page';
import { BudgetPage } from './pages/budget';
import { CrashPage, ForbiddenPage, NotFoundPage } from './pages/refused';
import { InboxPage } from './inbox/inbox-page';
import { ApprovalsRedirect } from './inbox/approvals-redirect';
import { JobPage } from './job/job-page';
import { ComparePage } from './fork/compare-page';
import { KnowledgePage } from './knowledge/knowledge-page';
import { LoginPage } from './pages/login';
import { ModelsPage } from './pages/models';
import { PendingPage } from './pages/pending';
import { WorkflowPage } from './workflows/workflow-page';
import { WorkflowsPage } from './workflows/workflows-page';
import './styles.css';

const router = createBrowserRouter([
  { path: '/login', element: <LoginPage /> },
  { path: '/pending', element: <PendingPage /> },
  {
    element: <AppShell />,
    errorElement: <CrashPage />,
    children: [
      { index: true, element: <Navigate to="/workflows" replace /> },
      // Its own chunk: the project picker's combobox library is paid for by this page only.
      { path: '/runs/new', lazy: () => import('./pages/new-run').then((m) => ({ Component: m.NewRunPage })) },
      { path: '/workflows', element: <WorkflowsPage /> },
      { path: '/workflows/:id', element: <WorkflowPage /> },
      { path: '/jobs/:id', element: <JobPage /> },
      { path: '/jobs/:id/compare/:other', element: <ComparePage /> },
      { path: '/inbox', element: <InboxPage /> },
      { path: '/approvals', element: <ApprovalsRedirect /> },
      { path: '/knowledge', element: <KnowledgePage /> },
      { path: '/models', element: <ModelsPage /> },
      { path: '/admin', element: <AdminPage /> },
      { path: '/admin/projects/:org/:slug/policy', element: <ApprovalPolicyPage /> },
      { path: '/budget', element: <BudgetPage /> },
      { path: '/forbidden', element: <ForbiddenPage /> },
      { path: '/not-found', element: <NotFoundPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
