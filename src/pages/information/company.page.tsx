import { CompanyPage } from '../../features/company/CompanyPage.tsx';

export default CompanyPage;
